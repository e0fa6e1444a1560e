package dev.weir.engine.retention;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.weir.journal.HistoryBase;
import dev.weir.journal.JournalCycles;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.codec.OutputDecoder;
import dev.weir.journal.retention.CycleRemoval;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.RetentionLock;
import dev.weir.journal.retention.OutputHistory;

/**
 * One retention step on a journal: remove (delete, or move to an archive) every whole roll cycle of the events
 * queue and of each pipeline's output journal that ended more than the retention ago, never one that holds a
 * position the {@link RetentionFloor} says is still needed, and never a queue's newest cycle (its appender's).
 * <p>
 * Crash safety, in order: (1) the floor is read and the cycles chosen; (2) the events queue's
 * {@link HistoryBase} is moved on to the first kept offset, forced, before any events cycle goes (readers never
 * read before it from then on); (3) the events cycles are removed, oldest first; (4) for each pipeline, its
 * {@link OutputHistory} is written, forced, then its output cycles are removed. A kill at any moment leaves a
 * prefix of the chosen cycles removed, each readable record already covering what is gone; the next step
 * removes the rest. Only cycles wholly before the floor go, so a pipeline, a delivery or a resume never misses a
 * document it needs.
 * <p>
 * One step at a time per journal ({@link RetentionLock}). Reads and writes files only: not on any pipeline's
 * thread. Stateless; thread-safe.
 */
public final class JournalRetention
{
    private JournalRetention()
    {
    }

    /**
     * Apply the retention now.
     *
     * @param journal    the journal.
     * @param keepMillis how long cycles are kept after they end, ms (0: every whole cycle the floor allows).
     * @param archive    where to move removed cycles, or null to delete them.
     * @param nowMillis  now, on the journal's clock ({@code JournalClock.current().now()}).
     * @param dryRun     report what would be removed, remove nothing.
     * @return what it did.
     * @throws dev.weir.journal.JournalRefusedException if another retention step is running on the journal.
     */
    public static RetentionReport apply(
        final JournalDirectory journal, final long keepMillis, final Path archive, final long nowMillis, final boolean dryRun)
    {
        try (RetentionLock ignored = RetentionLock.acquire(journal))
        {
            return step(journal, keepMillis, archive, nowMillis, dryRun);
        }
    }

    /**
     * Apply the retention now if no other step is running on the journal (a following run's periodic
     * retention, which tries again later).
     *
     * @param journal    the journal.
     * @param keepMillis how long cycles are kept after they end, ms.
     * @param archive    where to move removed cycles, or null to delete them.
     * @param nowMillis  now, on the journal's clock.
     * @return what it did, or null if another step holds the journal.
     */
    public static RetentionReport applyIfFree(final JournalDirectory journal, final long keepMillis, final Path archive, final long nowMillis)
    {
        final RetentionLock lock = RetentionLock.tryAcquire(journal);
        if (lock == null)
        {
            return null;
        }
        try (lock)
        {
            return step(journal, keepMillis, archive, nowMillis, false);
        }
    }

    private static RetentionReport step(
        final JournalDirectory journal, final long keepMillis, final Path archive, final long nowMillis, final boolean dryRun)
    {
        if (keepMillis < 0)
        {
            throw new IllegalArgumentException("a retention cannot be negative: " + keepMillis + " ms");
        }
        final long endedBefore = nowMillis - keepMillis;
        final RetentionFloor floor = RetentionFloor.of(journal);
        final List<RemovedCycle> removed = new ArrayList<>();
        final List<String> heldBack = new ArrayList<>();

        final JournalCycles events = JournalCycles.events(journal);
        final int eventCycles = removable(events, endedBefore, floor.eventsFloor());
        holdBack(events, eventCycles, endedBefore, "events", floor.eventsHolder(), heldBack);
        if (eventCycles > 0)
        {
            final long newFirst = events.cycles().get(eventCycles).firstOffset();
            if (!dryRun)
            {
                advanceBase(journal, floor, events, eventCycles, newFirst, archive);
            }
            for (int i = 0; i < eventCycles; i++)
            {
                final JournalCycles.Cycle cycle = events.cycles().get(i);
                removed.add(new RemovedCycle("events", cycle,
                    dryRun ? null : CycleRemoval.remove(journal, events.queue(), cycle.fileName(), archive)));
            }
        }

        long keptBytes = 0;
        for (final String name : floor.pipelines())
        {
            final JournalDirectory pipeline = journal.pipeline(name);
            final JournalCycles results = JournalCycles.results(pipeline);
            final PipelineFloor pipelineFloor = floor.pipeline(name);
            final int outputCycles = removable(results, endedBefore, pipelineFloor.outputFloor());
            final String label = "results of pipeline " + name;
            holdBack(results, outputCycles, endedBefore, label, pipelineFloor.holder(), heldBack);
            if (outputCycles > 0)
            {
                if (!dryRun)
                {
                    recordOutputHistory(pipeline, results, outputCycles, archive, nowMillis);
                }
                for (int i = 0; i < outputCycles; i++)
                {
                    final JournalCycles.Cycle cycle = results.cycles().get(i);
                    removed.add(new RemovedCycle(label, cycle,
                        dryRun ? null : CycleRemoval.remove(journal, results.queue(), cycle.fileName(), archive)));
                }
            }
            keptBytes += dryRun ? results.totalBytes() - bytes(results, outputCycles) : JournalCycles.results(pipeline).totalBytes();
        }
        final JournalCycles after = dryRun ? events : JournalCycles.events(journal); // also refreshes Chronicle's listing
        keptBytes += dryRun ? events.totalBytes() - bytes(events, eventCycles) : after.totalBytes();
        final long oldest = dryRun && eventCycles > 0 && eventCycles < events.cycles().size()
            ? events.cycles().get(eventCycles).firstOffset() : after.oldestOffset();
        return new RetentionReport(journal.root(), nowMillis, keepMillis, archive, dryRun, floor, List.copyOf(removed),
            List.copyOf(heldBack), oldest, keptBytes);
    }

    /**
     * @return how many of the queue's cycles, oldest first, may go: each ended before {@code endedBefore}, holds
     *         only positions before {@code floor}, and is not the newest.
     */
    private static int removable(final JournalCycles queue, final long endedBefore, final long floor)
    {
        final List<JournalCycles.Cycle> cycles = queue.cycles();
        int n = 0;
        while (n < cycles.size() - 1)
        {
            final JournalCycles.Cycle cycle = cycles.get(n);
            if (cycle.endMillis() > endedBefore || cycle.lastOffset() >= floor)
            {
                break;
            }
            n++;
        }
        return n;
    }

    private static void holdBack(
        final JournalCycles queue, final int removable, final long endedBefore, final String label, final RetentionHolder holder,
        final List<String> heldBack)
    {
        final List<JournalCycles.Cycle> cycles = queue.cycles();
        int old = removable;
        while (old < cycles.size() - 1 && cycles.get(old).endMillis() <= endedBefore)
        {
            old++;
        }
        if (old > removable && holder != null)
        {
            heldBack.add("held back: " + (old - removable) + " " + label + " cycles ended before "
                + Instant.ofEpochMilli(endedBefore) + " from " + cycles.get(removable).fileName() + " on, needed by "
                + (holder.kind() == RetentionHolder.Kind.POSTGRES_DELIVERY ? "the PostgreSQL delivery of pipeline " : "pipeline ")
                + holder.pipeline() + " (" + holder.detail() + ")");
        }
    }

    private static long bytes(final JournalCycles queue, final int first)
    {
        long bytes = 0;
        for (int i = 0; i < first; i++)
        {
            bytes += queue.cycles().get(i).bytes();
        }
        return bytes;
    }

    private static void advanceBase(
        final JournalDirectory journal, final RetentionFloor floor, final JournalCycles events, final int removable, final long newFirst,
        final Path archive)
    {
        final long oldFirst = HistoryBase.read(journal).map(HistoryBase.Summary::firstOffset).orElse(Long.MIN_VALUE);
        if (newFirst <= oldFirst)
        {
            return; // a step killed after moving the base on: its cycles are only left to remove
        }
        long bytes = 0;
        for (int i = 0; i < removable; i++)
        {
            final JournalCycles.Cycle cycle = events.cycles().get(i);
            if (cycle.lastOffset() >= oldFirst)
            {
                bytes += cycle.bytes();
            }
        }
        final List<int[]> keyColumnSets = new ArrayList<>();
        for (final String name : floor.pipelines())
        {
            final PipelineFloor pipeline = floor.pipeline(name);
            if (pipeline.keysByTuple())
            {
                keyColumnSets.add(pipeline.keyColumnArray());
            }
        }
        HistoryBase.advance(journal, newFirst, keyColumnSets, bytes, archive);
    }

    private static void recordOutputHistory(
        final JournalDirectory pipeline, final JournalCycles results, final int removable, final Path archive, final long nowMillis)
    {
        final OutputHistory old = OutputHistory.read(pipeline).orElse(null);
        final long oldFirst = old == null ? OutputJournal.NONE : old.firstPosition();
        final long newFirst = results.cycles().get(removable).firstOffset();
        if (newFirst <= oldFirst)
        {
            return;
        }
        final long[] counts = {0, 0, old == null ? Long.MIN_VALUE : old.maxRemovedWindowStart()};
        try (OutputJournal output = OutputJournal.open(pipeline))
        {
            counts[0] = output.readBetween(oldFirst, newFirst, (OutputDecoder stored) ->
            {
                if (stored.isResult())
                {
                    counts[1]++;
                    counts[2] = Math.max(counts[2], stored.result().windowStart());
                }
            });
        }
        long bytes = 0;
        for (int i = 0; i < removable; i++)
        {
            final JournalCycles.Cycle cycle = results.cycles().get(i);
            if (cycle.lastOffset() >= oldFirst)
            {
                bytes += cycle.bytes();
            }
        }
        new OutputHistory(pipeline.id(), newFirst,
            (old == null ? 0 : old.removedOutputs()) + counts[0], (old == null ? 0 : old.removedResults()) + counts[1],
            (old == null ? 0 : old.removedBytes()) + bytes, counts[2], archive, Instant.ofEpochMilli(nowMillis)).write(pipeline);
    }
}
