package dev.weir.engine.retention;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import dev.weir.engine.PipelineBuilder;
import dev.weir.engine.Weir;
import dev.weir.engine.checkpoint.Checkpoint;
import dev.weir.engine.checkpoint.CheckpointCodec;
import dev.weir.engine.checkpoint.CheckpointStore;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.DeliveryPositions;
import dev.weir.journal.EventJournal;
import dev.weir.journal.HistoryBase;
import dev.weir.journal.JournalClock;
import dev.weir.journal.JournalCycles;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRefusedException;
import dev.weir.journal.JournalRollCycle;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.RetentionLock;
import dev.weir.journal.retention.OutputHistory;
import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One retention step ({@link JournalRetention#apply}) on a minutely journal under a test clock, with a pipeline
 * part-way through it: exactly the whole cycles that ended more than the retention ago and lie before the floor
 * go, never the newest; the history base is written before; a dry run removes nothing; an archive receives them;
 * a second step does nothing; a concurrent one is refused; the output cycles before the lower of the checkpoint
 * and a delivery record go and {@link OutputHistory} counts them; and the pipeline then resumes to the same
 * outputs as on an unretained journal.
 */
class JournalRetentionTest
{
    private static final JournalSchema SCHEMA = JournalSchema.parse("card:string,amount:long");
    private static final long MINUTE = 60_000L;
    private static final long START = Instant.parse("2026-12-01T10:00:00Z").toEpochMilli();
    /** Events per cycle; cycle c holds events c*PER_CYCLE until (c+1)*PER_CYCLE. */
    private static final int PER_CYCLE = 400;

    @TempDir
    Path dir;

    private final AtomicLong now = new AtomicLong(START);

    @AfterEach
    void systemClock()
    {
        JournalClock.useForTests(null);
    }

    @Test
    void removesTheWholeCyclesBeforeTheFloorAndOlderThanTheRetentionThenThePipelineResumesToTheSameOutputs() throws IOException
    {
        JournalClock.useForTests(JournalClock.of(now::get));
        final Path retained = dir.resolve("retained");
        final Path plain = dir.resolve("plain");
        for (final Path path : List.of(retained, plain))
        {
            now.set(START);
            history(path);
        }
        final JournalDirectory journal = JournalDirectory.open(retained);
        final List<JournalCycles.Cycle> events = JournalCycles.events(journal).cycles();
        assertEquals(8, events.size(), events.toString());
        final List<JournalCycles.Cycle> outputs = JournalCycles.results(journal).cycles();
        assertEquals(2, outputs.size(), "the pipeline ran in minutes 1 and 4: " + outputs);
        final Checkpoint checkpoint = newestCheckpoint(journal);
        assertTrue(checkpoint.sourceOffset() >= events.get(4).firstOffset() && checkpoint.sourceOffset() <= events.get(4).lastOffset(),
            "the pipeline stopped in cycle 4: " + checkpoint);
        final List<Path> before = listing(retained);

        // a dry run removes nothing and writes nothing (but the lock file every step holds)
        now.set(START + 8 * MINUTE + 1_000);
        final RetentionReport dry = JournalRetention.apply(journal, 5 * MINUTE, null, now.get(), true);
        assertEquals(before, listing(retained));
        assertEquals(List.of("events 0", "events 1", "events 2", "results 0"), names(dry, events, outputs), dry.lines().toString());
        assertTrue(dry.lines().get(0).endsWith("(dry run: nothing removed)"), dry.lines().get(0));

        // the retention alone decides: cycles 0..2 ended more than 5 minutes before 10:08:01; the floor would allow 3 too
        final Path archive = dir.resolve("archive");
        final RetentionReport first = JournalRetention.apply(journal, 5 * MINUTE, archive, now.get(), false);
        assertEquals(List.of("events 0", "events 1", "events 2", "results 0"), names(first, events, outputs), first.lines().toString());
        assertEquals(events.get(3).firstOffset(), first.oldestOffset());
        assertEquals(events.get(3).firstOffset(), HistoryBase.read(journal).orElseThrow().firstOffset(), "the base moved on to the first kept offset");
        for (int c = 0; c < 3; c++)
        {
            assertFalse(Files.exists(journal.eventsQueue().resolve(events.get(c).fileName())));
            assertTrue(Files.isRegularFile(archive.resolve("events").resolve(events.get(c).fileName())), "archived " + c);
        }
        assertTrue(Files.isRegularFile(archive.resolve("results").resolve(outputs.get(0).fileName())));
        final OutputHistory history = OutputHistory.read(journal).orElseThrow();
        assertEquals(outputs.get(1).firstOffset(), history.firstPosition());
        final List<String> plainOutputs = outputRows(JournalDirectory.open(plain));
        // a document of a batched journal holds one or more outputs: at least one output per removed document,
        // and exactly those the plain run wrote before the outputs kept
        assertTrue(history.removedOutputs() >= outputs.get(0).documents(), "every output of the removed cycle is counted");
        assertEquals(plainOutputs.size(), history.removedOutputs() + outputRows(journal).size());

        // a second step at the same time does nothing
        final RetentionReport again = JournalRetention.apply(journal, 5 * MINUTE, archive, now.get(), false);
        assertEquals(List.of(), again.removed(), again.lines().toString());
        assertEquals(history, OutputHistory.read(journal).orElseThrow());

        // a concurrent step is refused, or skipped by the periodic form
        try (RetentionLock held = RetentionLock.acquire(journal))
        {
            final JournalRefusedException refused =
                assertThrows(JournalRefusedException.class, () -> JournalRetention.apply(journal, 0, null, now.get(), false));
            assertTrue(refused.getMessage().contains("another retention step is running"), refused.getMessage());
            assertNull(JournalRetention.applyIfFree(journal, 0, null, now.get()));
        }
        assertEquals(8 - 3, JournalCycles.events(journal).cycles().size(), "the refused steps removed nothing");

        // with no retention, the floor decides: cycle 3 goes, cycle 4 holds the checkpoint; the outputs' newest cycle stays
        final List<JournalCycles.Cycle> kept = JournalCycles.events(journal).cycles();
        final RetentionReport floorBound = JournalRetention.apply(journal, 0, null, now.get(), false);
        assertEquals(List.of("events 3"), names(floorBound, events, outputs), floorBound.lines().toString());
        assertEquals(kept.subList(1, kept.size()), JournalCycles.events(journal).cycles(), "nothing at or after the floor was touched");
        assertTrue(floorBound.lines().stream().anyMatch(line -> line.startsWith("held back: 3 events cycles ")
            && line.contains("needed by pipeline default (checkpoint " + checkpoint.sequence())), floorBound.lines().toString());

        // the pipeline resumes over the rest: the same outputs, with the same key ids, as without retention
        final long retainedFrom = OutputHistory.read(journal).orElseThrow().firstPosition();
        now.set(START + 9 * MINUTE + 1_000);
        spend(retained).build().runToEnd();
        spend(plain).build().runToEnd();
        final List<String> all = outputRows(JournalDirectory.open(plain));
        final List<String> left = outputRows(journal);
        // the same outputs in the same order; their positions may differ, as two runs may batch them differently
        assertEquals(withoutPositions(all.subList(all.size() - left.size(), all.size())), withoutPositions(left));
        assertTrue(left.get(0).startsWith(retainedFrom + " "), left.get(0));
        assertEquals(all.size(), history.removedOutputs() + left.size());
    }

    @Test
    void aHeldBackDeliveryRecordHoldsTheOutputCyclesAndNeverTheNewestCycleGoes() throws IOException
    {
        JournalClock.useForTests(JournalClock.of(now::get));
        final Path path = dir.resolve("j");
        history(path);
        final JournalDirectory journal = JournalDirectory.open(path);
        final List<JournalCycles.Cycle> outputs = JournalCycles.results(journal).cycles();
        final long early = outputs.get(0).firstOffset() + 1;
        DeliveryPositions.register(journal.pipelineRoot(), "weir_results", "jdbc:postgresql://127.0.0.1:5432/weir", early, 0);
        now.set(START + 20 * MINUTE);

        final RetentionReport held = JournalRetention.apply(journal, 0, null, now.get(), false);
        assertEquals(outputs, JournalCycles.results(journal).cycles(), "the delivery holds the output cycle it has not committed past");
        assertTrue(held.lines().stream().anyMatch(line -> line.startsWith("held back: 1 results of pipeline default cycles ")
            && line.contains("needed by the PostgreSQL delivery of pipeline default (delivery into weir_results")), held.lines().toString());
        assertFalse(OutputHistory.read(journal).isPresent(), "no output removed, no output history");

        DeliveryPositions.advance(journal.pipelineRoot(), "weir_results", "jdbc:postgresql://127.0.0.1:5432/weir",
            outputs.get(1).firstOffset(), 0);
        final RetentionReport caughtUp = JournalRetention.apply(journal, 0, null, now.get(), false);
        assertEquals(outputs.subList(1, 2), JournalCycles.results(journal).cycles(), "caught up: its cycle goes, the newest stays");
        assertEquals(1, caughtUp.removed().stream().filter(r -> r.queue().startsWith("results")).count());

        // with no pipeline holding anything, every cycle but the newest goes
        final Path bare = dir.resolve("bare");
        now.set(START);
        append(bare, 0, 3);
        now.set(START + 20 * MINUTE);
        final JournalDirectory bareJournal = JournalDirectory.open(bare);
        final List<JournalCycles.Cycle> cycles = JournalCycles.events(bareJournal).cycles();
        assertFalse(HistoryBase.read(bareJournal).isPresent());

        // the base is written before any cycle goes: a step whose removal fails has moved the base on already
        final Path notADirectory = Files.writeString(dir.resolve("archive-file"), "x");
        assertThrows(RuntimeException.class, () -> JournalRetention.apply(bareJournal, 0, notADirectory.resolve("sub"), now.get(), false));
        assertEquals(cycles, JournalCycles.events(bareJournal).cycles(), "nothing removed");
        assertEquals(cycles.get(2).firstOffset(), HistoryBase.read(bareJournal).orElseThrow().firstOffset(), "but the base moved on");

        JournalRetention.apply(bareJournal, 0, null, now.get(), false);
        assertEquals(cycles.subList(2, 3), JournalCycles.events(bareJournal).cycles());
    }

    /**
     * Cycles 0..7 of events, one per minute; the pipeline runs in minute 1 (over cycles 0, 1) and in minute 4
     * (over 2..4), each run's outputs in the cycle of its minute.
     */
    private void history(final Path path)
    {
        append(path, 0, 2);
        now.set(START + MINUTE + 30_000);
        spend(path).build().runToEnd();
        append(path, 2, 5);
        now.set(START + 4 * MINUTE + 30_000);
        spend(path).build().runToEnd();
        append(path, 5, 8);
    }

    /** Append cycles {@code from} until {@code to}, each in its own minute. */
    private void append(final Path path, final int from, final int to)
    {
        for (int c = from; c < to; c++)
        {
            now.set(START + c * MINUTE + 1_000);
            final SplittableRandom random = new SplittableRandom(c);
            try (EventJournal writer = EventJournal.openOrCreate(path, SCHEMA, JournalRollCycle.MINUTELY))
            {
                for (int i = c * PER_CYCLE; i < (c + 1) * PER_CYCLE; i++)
                {
                    // new cards keep appearing, so later results name keys first seen in removed cycles and new ones
                    final int card = random.nextInt(20 + 10 * c);
                    writer.append(writer.row().eventId(i).eventTime(10_000L + 5L * i - random.nextInt(100))
                        .setString(0, writer.stringId(0, "card-" + card)).setLong(1, random.nextInt(1_000)));
                }
            }
        }
    }

    /** Each run after the first resumes after the end of the one before: its new events are late, as asked. */
    private static PipelineBuilder spend(final Path journal)
    {
        return Weir.pipeline().journal(journal).keyColumn("card").valueColumn("amount").window(TumblingWindows.of(1_000))
            .outOfOrderness(200).allowedLateness(100).latePolicy(LatePolicy.SIDE).checkpointEvery(500).resumeAfterEnd(true);
    }

    /** The queue and the index (among the cycles listed before any removal) of each removed cycle. */
    private static List<String> names(final RetentionReport report, final List<JournalCycles.Cycle> events, final List<JournalCycles.Cycle> outputs)
    {
        final List<String> names = new ArrayList<>();
        for (final RemovedCycle removed : report.removed())
        {
            names.add(removed.queue().equals("events") ? "events " + events.indexOf(removed.cycle())
                : "results " + outputs.indexOf(removed.cycle()));
        }
        return names;
    }

    /** Every output the journal holds, as "position output". */
    private static List<String> withoutPositions(final List<String> rows)
    {
        return rows.stream().map(row -> row.substring(row.indexOf(' ') + 1)).toList();
    }

    private static List<String> outputRows(final JournalDirectory journal)
    {
        final List<String> rows = new ArrayList<>();
        try (OutputJournal outputs = OutputJournal.open(journal))
        {
            outputs.seekAfter(OutputJournal.NONE);
            final String[] text = new String[1];
            while (outputs.next(output -> text[0] = output.toString()) != 0)
            {
                rows.add(outputs.lastReadPosition() + " " + text[0]);
            }
        }
        return rows;
    }

    private static Checkpoint newestCheckpoint(final JournalDirectory pipeline)
    {
        return CheckpointCodec.describe(new CheckpointStore(pipeline.checkpoints(), 2).loadNewestValid());
    }

    private static List<Path> listing(final Path root) throws IOException
    {
        try (Stream<Path> files = Files.walk(root))
        {
            return files.filter(Files::isRegularFile).map(root::relativize).filter(file -> !file.toString().equals("retention.lock"))
                .sorted().toList();
        }
    }
}
