package dev.weir.check;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Formatter;
import java.util.List;
import java.util.stream.Collectors;

import dev.weir.engine.retention.PipelineFloor;
import dev.weir.engine.retention.RetentionFloor;
import dev.weir.engine.retention.RetentionHolder;
import dev.weir.engine.status.CheckpointCounts;
import dev.weir.engine.status.CheckpointCoverage;
import dev.weir.engine.status.CheckpointSummary;
import dev.weir.engine.status.NewestCheckpoint;
import dev.weir.journal.HistoryBase;
import dev.weir.journal.JournalCycles;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRollCycle;
import dev.weir.journal.retention.HeldRemovedCycles;
import dev.weir.journal.retention.OutputHistory;
import dev.weir.journal.schema.JournalSchema;

/**
 * A {@link JournalInspection} as text, the lines {@code weir inspect} prints, for a service's logs or admin endpoint:
 * the journal, its columns (with their generations if it gained some), roll cycle, events, its reference tables (one
 * {@code table} line each: name, key, columns, live keys, versions and tombstones), offsets and dictionary snapshot; one line per named pipeline with how far it got; for each pipeline shown (under a
 * {@code --- pipeline NAME ---} line unless it is the default alone) its outputs and newest valid checkpoint; the cycle
 * files on disk; what retention removed and the retention floor with its holders. Each line ends with the platform's
 * line separator; numbers are grouped as the default locale groups them. Stateless; a call writes on the caller's thread.
 */
public final class InspectionReport
{
    private final Formatter out;

    private InspectionReport(final Appendable out)
    {
        this.out = new Formatter(out);
    }

    /**
     * @param inspection what a journal holds.
     * @param out        where to write its text (not closed).
     * @throws UncheckedIOException if {@code out} fails.
     */
    public static void write(final JournalInspection inspection, final Appendable out)
    {
        final InspectionReport report = new InspectionReport(out);
        report.journal(inspection);
        final IOException failure = report.out.ioException();
        if (failure != null)
        {
            throw new UncheckedIOException(failure);
        }
    }

    private void journal(final JournalInspection inspection)
    {
        out.format("journal      %s (format version %d)%n", inspection.root(), inspection.formatVersion());
        out.format("columns      %s%n", inspection.eventsPending() ? "pending: the first event ingest fixes the events' columns" : inspection.schema());
        if (inspection.schemaHistory().size() > 1)
        {
            schemaHistory(inspection.schemaHistory());
        }
        out.format("roll cycle   %s (one file per %s; at most %,d documents per file)%n", inspection.rollCycle(),
            unit(inspection.rollCycle()), inspection.rollCycle().capacity());
        out.format("events       %,d events, %,d rejected lines, %,d ingests, %s%n", inspection.counts().events(), inspection.counts().rejected(),
            inspection.counts().ingests(), distinctValues(inspection));
        if (inspection.counts().heartbeats() > 0)
        {
            out.format("heartbeats   %,d heartbeats (no events: they move the watermark at their offset)%n", inspection.counts().heartbeats());
        }
        for (final TableContents table : inspection.tables())
        {
            out.format("table        %s: key %s; columns %s; %,d keys, %,d versions, %,d tombstones%n", table.table().name(),
                String.join(",", table.table().key()), table.table().columns(), table.keys(), table.versions(), table.tombstones());
        }
        out.format("offsets      first event %d, last event %d (documents %d..%d)%n", inspection.counts().firstEventOffset(),
            inspection.counts().lastEventOffset(), inspection.counts().firstOffset(), inspection.counts().lastOffset());
        out.format("snapshot     %s%n", snapshotLine(inspection.snapshotStatus()));
        final List<String> pipelines = inspection.pipelineNames();
        if (pipelines.size() > 1 || (pipelines.size() == 1 && !JournalDirectory.DEFAULT_PIPELINE.equals(pipelines.get(0))))
        {
            pipelines(inspection);
        }
        for (final JournalInspection.PipelineInspection shown : inspection.pipelines())
        {
            if (inspection.pipelines().size() > 1 || !JournalDirectory.DEFAULT_PIPELINE.equals(shown.name()))
            {
                out.format("--- pipeline %s ---%n", shown.name());
            }
            out.format("output       %,d results, %,d late events; last output position %d%n", shown.results(), shown.lateEvents(),
                shown.lastOutputPosition());
            checkpoint(shown.checkpoint());
        }
        disk(inspection);
        retention(inspection);
    }

    /**
     * One {@code schema} line per generation of a journal that gained columns: the columns it was created with,
     * then each time columns were added, which and when.
     */
    private void schemaHistory(final List<JournalDirectory.Generation> history)
    {
        for (final JournalDirectory.Generation generation : history)
        {
            final String columns = generation.added().stream().map(JournalSchema.Column::toString).collect(Collectors.joining(","));
            out.format("schema       generation %d: %s%n", generation.number(), generation.at() == null
                ? columns + " (created)" : "added " + columns + " at " + generation.at());
        }
    }

    /**
     * The retention lines: the history base (what was removed from the events queue), each pipeline's output
     * history, and the floor: the first events offset and output positions something still needs, and who.
     */
    private void retention(final JournalInspection inspection)
    {
        final HistoryBase.Summary base = inspection.removedEvents().orElse(null);
        if (base == null)
        {
            out.format("retention    nothing removed%n");
        }
        else
        {
            out.format("retention    oldest offset %d; %,d events removed (%,d documents, %,d bytes)%s; %s%n", base.firstOffset(),
                base.countsBefore().events(), base.removedDocuments(), base.removedBytes(),
                base.maxRemovedEventTime() < 0 ? "" : ", up to event time " + Instant.ofEpochMilli(base.maxRemovedEventTime()),
                base.archive() == null ? "deleted, not archived" : "archive " + base.archive());
        }
        for (final JournalInspection.RemovedOutputs removed : inspection.removedOutputs())
        {
            final OutputHistory history = removed.history();
            out.format("history      results of %s: oldest output position %d; %,d results and %,d late events removed (%,d bytes)%s; %s%n",
                removed.pipeline(), history.firstPosition(), history.removedResults(), history.removedOutputs() - history.removedResults(),
                history.removedBytes(), history.maxRemovedWindowStart() == Long.MIN_VALUE ? ""
                    : ", window starts up to " + Instant.ofEpochMilli(history.maxRemovedWindowStart()),
                history.archive() == null ? "deleted, not archived" : "archive " + history.archive());
        }
        final RetentionFloor floor = inspection.floor();
        final StringBuilder line = new StringBuilder("events from ").append(RetentionFloor.describe(floor.eventsFloor()))
            .append(held(floor.eventsHolder()));
        for (final String name : floor.pipelines())
        {
            final PipelineFloor pipeline = floor.pipeline(name);
            line.append("; results of ").append(name).append(" from ").append(RetentionFloor.describe(pipeline.outputFloor()))
                .append(held(pipeline.holder()));
        }
        out.format("floor        %s%n", line);
    }

    private static String held(final RetentionHolder holder)
    {
        if (holder == null)
        {
            return "";
        }
        return ", held by " + (holder.kind() == RetentionHolder.Kind.POSTGRES_DELIVERY ? "the PostgreSQL delivery of pipeline " : "pipeline ")
            + holder.pipeline() + " (" + holder.detail() + ")";
    }

    private static String unit(final JournalRollCycle rollCycle)
    {
        return rollCycle == JournalRollCycle.MINUTELY ? "minute" : rollCycle == JournalRollCycle.HOURLY ? "hour" : "day";
    }

    /**
     * The "disk" section: per queue (the events, then each pipeline's results), its total size, the oldest offset it
     * still holds and one line per cycle file; then the removed cycle files a process still holds open, whose space
     * is not free yet ({@link HeldRemovedCycles}: a line if there are any, or if this system cannot tell).
     */
    private void disk(final JournalInspection inspection)
    {
        for (final JournalInspection.QueueFiles queue : inspection.disk())
        {
            queue(queue.name(), queue.cycles());
        }
        final HeldRemovedCycles held = inspection.heldOpen().orElse(null);
        if (held == null)
        {
            out.format("disk         removed cycle files still open: not known here (no /proc)%n");
        }
        else if (held.files() > 0)
        {
            out.format("disk         removed cycle files still open: %,d (%,d bytes), held by pid %s: the space is freed when they are closed%n",
                held.files(), held.bytes(), held.processes().stream().map(String::valueOf).collect(Collectors.joining(", ")));
        }
    }

    private void queue(final String name, final JournalCycles queue)
    {
        final long oldest = queue.oldestOffset();
        out.format("disk         %s: %,d cycle files, %,d bytes, oldest offset %s%n", name, queue.cycles().size(), queue.totalBytes(),
            oldest < 0 ? "none" : Long.toString(oldest));
        for (final JournalCycles.Cycle c : queue.cycles())
        {
            out.format("  %s  %s..%s  offsets %d..%d  %,d documents  %,d bytes%n", c.fileName(), Instant.ofEpochMilli(c.startMillis()),
                Instant.ofEpochMilli(c.endMillis()), c.firstOffset(), c.lastOffset(), c.documents(), c.bytes());
        }
    }

    private void checkpoint(final NewestCheckpoint newest)
    {
        final CheckpointSummary summary = newest.newest().orElse(null);
        if (summary == null)
        {
            out.format("checkpoint   none%s%n", newest.skippedInvalid() > 0 ? " valid (" + newest.skippedInvalid() + " torn or corrupt)" : "");
            return;
        }
        final CheckpointCoverage c = summary.coverage();
        final CheckpointCounts n = summary.counts();
        out.format("checkpoint   #%d at offset %d (%,d events applied%s), output position %d, written %s%s%n", c.sequence(),
            c.sourceOffset(), c.applied(), c.finished() ? ", input finished" : "", c.outputPosition(), Instant.ofEpochMilli(c.writtenAtMillis()),
            newest.skippedInvalid() > 0 ? " (" + newest.skippedInvalid() + " newer ones torn or corrupt, skipped)" : "");
        out.format("pipeline     %s%n", c.configuration());
        out.format("format       state format %d; the next run %s%n", summary.stateFormat(), summary.nextRun());
        out.format("state        watermark %s, %,d open windows, %,d ids remembered for dedupe%n",
            summary.watermark() == Long.MAX_VALUE ? "+infinity" : summary.watermark() == Long.MIN_VALUE ? "-infinity" : Long.toString(summary.watermark()),
            summary.openWindows(), summary.rememberedIds());
        out.format("counts       %,d events, %,d windows fired, %,d late dropped, %,d late side-output, %,d in no window, %,d duplicates%n",
            n.events(), n.windowsFired(), n.dropped(), n.sideOutput(), n.inNoWindow(), n.duplicates());
        if (c.configuration().contains(" where="))
        {
            out.format("filtered     %,d events filtered out: they moved the watermark, nothing else%n", n.filtered());
        }
        if (n.unmatched() > 0)
        {
            out.format("unmatched    %,d events a join found no row for: they moved the watermark, nothing else%n", n.unmatched());
        }
        if (n.valuesWrapped() > 0 || n.sumsWrapped() > 0)
        {
            out.format("wrapped      %,d by --value, %,d in window sums: values past the 64-bit range, kept as wrapped%n",
                n.valuesWrapped(), n.sumsWrapped());
        }
    }

    /**
     * One line per pipeline: its newest checkpoint's offset, the events after it (its lag behind the journal's
     * last event) and the configuration it was taken under; or {@code no checkpoint}; first, for a pipeline whose
     * process is running, {@code running (pid N), applied offset X, lag Y events; }.
     */
    private void pipelines(final JournalInspection inspection)
    {
        out.format("pipelines    %s%n", String.join(", ", inspection.pipelineNames()));
        int width = 10;
        for (final String name : inspection.pipelineNames())
        {
            width = Math.max(width, name.length() + 1);
        }
        for (final JournalInspection.PipelineProgress progress : inspection.progress())
        {
            final String running = progress.running().map(InspectionReport::running).orElse("");
            final CheckpointCoverage c = progress.checkpoint().orElse(null);
            if (c == null)
            {
                out.format("  %-" + width + "s %sno checkpoint%n", progress.name(), running);
                continue;
            }
            out.format("  %-" + width + "s %scheckpoint at offset %d, lag %,d events; %s%n", progress.name(), running, c.sourceOffset(),
                progress.eventsAfterCheckpoint(), c.configuration());
        }
    }

    private static String running(final JournalInspection.RunningProcess process)
    {
        return process.appliedOffset() < 0 ? "running (pid " + process.pid() + "), nothing applied yet; "
            : String.format("running (pid %d), applied offset %d, lag %,d events; ", process.pid(), process.appliedOffset(), process.eventsAfter());
    }

    /**
     * @return the dictionary snapshot's line: whether opening the journal started from it.
     */
    private static String snapshotLine(final String status)
    {
        if ("none".equals(status))
        {
            return "none: the journal was scanned from its start (an appender writes one when it closes)";
        }
        if (status.startsWith("ignored: "))
        {
            return "invalid, " + status + "; the journal was scanned from its start (the next appender to close rewrites it)";
        }
        return "dictionaries and counts " + status + ", then the documents after it scanned";
    }

    /**
     * @return how many distinct values the string columns hold: {@code N keys} for the default columns, else
     *         {@code distinct card N, merchant M, ...}.
     */
    private static String distinctValues(final JournalInspection inspection)
    {
        if (inspection.schema().isDefault())
        {
            return String.format("%,d keys", inspection.distinctValues().get(0).count());
        }
        return inspection.distinctValues().isEmpty() ? "no string columns" : inspection.distinctValues().stream()
            .map(v -> v.column() + ' ' + String.format("%,d", v.count())).collect(Collectors.joining(", ", "distinct ", ""));
    }
}
