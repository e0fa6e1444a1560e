package dev.weir.engine.retention;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What one retention step did: the floor it respected and its holders, the cycles it removed, the cycles old
 * enough to go that the floor held back (and who holds them), and what the journal keeps afterwards.
 * Immutable; thread-safe.
 *
 * @param journal       the journal's root.
 * @param nowMillis     the journal clock's time the step took as now.
 * @param keepMillis    the retention: cycles that ended more than this long before now may go.
 * @param archive       where removed cycles were moved, or null if they were deleted.
 * @param dryRun        true if nothing was removed (only reported).
 * @param floor         the retention floor read at the start of the step.
 * @param removed       the cycles removed, events first, oldest first.
 * @param heldBack      cycles old enough to go that the floor kept, one line each saying which holder keeps them.
 * @param oldestOffset  the oldest events offset the journal holds after the step, or -1 if none.
 * @param keptBytes     the bytes of cycle files the journal (events and every pipeline's results) holds after the step.
 */
public record RetentionReport(
    Path journal, long nowMillis, long keepMillis, Path archive, boolean dryRun, RetentionFloor floor, List<RemovedCycle> removed,
    List<String> heldBack, long oldestOffset, long keptBytes)
{
    /**
     * @return the bytes of the cycle files removed.
     */
    public long removedBytes()
    {
        long bytes = 0;
        for (final RemovedCycle cycle : removed)
        {
            bytes += cycle.cycle().bytes();
        }
        return bytes;
    }

    /**
     * @return the report as the lines {@code weir retain} prints.
     */
    public List<String> lines()
    {
        final List<String> lines = new ArrayList<>();
        lines.add("retention of " + journal + ": keep " + Duration.ofMillis(keepMillis) + ", now " + Instant.ofEpochMilli(nowMillis)
            + (dryRun ? " (dry run: nothing removed)" : ""));
        final RetentionHolder holder = floor.eventsHolder();
        lines.add("floor: events from " + RetentionFloor.describe(floor.eventsFloor())
            + (holder == null ? "" : ", held by " + describe(holder)));
        for (final RetentionHolder each : floor.holders())
        {
            lines.add("  holder: " + describe(each) + ": events from " + RetentionFloor.describe(each.eventsFrom())
                + ", outputs from " + RetentionFloor.describe(each.outputsFrom()));
        }
        lines.add("  ingest resume: kept in history.base, never holds the floor");
        for (final RemovedCycle cycle : removed)
        {
            lines.add((dryRun ? "would remove " : cycle.archived() == null ? "removed " : "archived ") + cycle.queue() + " "
                + cycle.cycle().fileName() + ": offsets " + cycle.cycle().firstOffset() + ".." + cycle.cycle().lastOffset() + ", "
                + cycle.cycle().documents() + " documents, " + cycle.cycle().bytes() + " bytes, ended "
                + Instant.ofEpochMilli(cycle.cycle().endMillis()) + (cycle.archived() == null ? "" : ", to " + cycle.archived()));
        }
        lines.addAll(heldBack);
        lines.add((removed.isEmpty() ? "nothing removed" : (dryRun ? "would remove " : "removed ") + removed.size()
            + " cycles, " + removedBytes() + " bytes") + "; kept " + keptBytes + " bytes; oldest events offset "
            + (oldestOffset < 0 ? "none" : Long.toString(oldestOffset)));
        return lines;
    }

    private static String describe(final RetentionHolder holder)
    {
        return switch (holder.kind())
        {
            case PIPELINE_CHECKPOINT -> "pipeline " + holder.pipeline() + " (" + holder.detail() + ")";
            case PIPELINE_WITHOUT_CHECKPOINT -> "pipeline " + holder.pipeline() + " (" + holder.detail() + ")";
            case POSTGRES_DELIVERY -> "PostgreSQL delivery of pipeline " + holder.pipeline() + " (" + holder.detail() + ")";
        };
    }
}
