package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.aggregate.ApproxDistinct;
import dev.weir.engine.aggregate.Average;
import dev.weir.engine.checkpoint.CheckpointStore;
import dev.weir.engine.emit.WindowResult;
import dev.weir.engine.resume.CheckpointMismatchException;
import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.engine.window.WindowSpec;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.KeyDictionary;
import dev.weir.journal.OutputJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * User aggregations through the whole pipeline: computed per window and per merged session, restored from
 * checkpoints so that a stopped and resumed run reports what an uninterrupted one does, and part of the
 * configuration a checkpoint must match.
 */
class UserAggregationTest
{
    @TempDir
    Path dir;

    @Test
    void theAverageOfEveryWindowAndSessionMatchesItsCountAndSum() throws IOException
    {
        final Path journal = fill(dir.resolve("journal"), 20_000, 40, 7);
        for (final WindowSpec spec : new WindowSpec[] {TumblingWindows.of(500), SlidingWindows.of(500, 100), SessionWindows.withGap(60)})
        {
            final List<long[]> rows = new ArrayList<>();
            Weir.pipeline().journal(journal).window(spec).outOfOrderness(30).allowedLateness(50).aggregate(new Average())
                .replayRange(-1, Long.MAX_VALUE).onResult(r -> rows.add(new long[] {r.count(), r.sum(), r.aggregate()})).build().runToEnd();
            assertFalse(rows.isEmpty());
            for (final long[] row : rows)
            {
                assertEquals(Math.floorDiv(row[1], row[0]), row[2], spec.describe());
            }
        }
    }

    @Test
    void theDistinctCountOfEachTumblingWindowIsCloseToTheExactOne() throws IOException
    {
        final Path journal = dir.resolve("distinct");
        final Map<String, Set<Long>> exact = new HashMap<>();
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            final int[] ids = new int[5];
            for (int k = 0; k < ids.length; k++)
            {
                ids[k] = writer.keyId("k" + k); // ids in this order: key k has id k
            }
            final SplittableRandom random = new SplittableRandom(5);
            for (int i = 0; i < 50_000; i++)
            {
                final int key = random.nextInt(5);
                final long value = random.nextInt(1 + key * 400); // keys 0..4 see 1 to 1,601 distinct values
                writer.append(i, i, ids[key], value);
                exact.computeIfAbsent(key + "@" + (i / 10_000), k -> new HashSet<>()).add(value);
            }
        }
        final Map<String, Long> estimated = new HashMap<>();
        Weir.pipeline().journal(journal).window(TumblingWindows.of(10_000)).aggregate(new ApproxDistinct()).replayRange(-1, Long.MAX_VALUE)
            .onResult(r -> estimated.put(r.keyId() + "@" + (r.windowStart() / 10_000), r.aggregate())).build().runToEnd();
        assertEquals(exact.keySet(), estimated.keySet(), "key ids are 0..4 in the order defined");
        exact.forEach((window, values) -> assertTrue(Math.abs(estimated.get(window) - values.size()) <= Math.max(2, 0.4 * values.size()),
            window + ": " + values.size() + " distinct, estimated " + estimated.get(window)));
    }

    @Test
    void aStoppedAndResumedRunReportsWhatAnUninterruptedOneDoes() throws Exception
    {
        final Path clean = fill(dir.resolve("clean"), 30_000, 25, 11);
        final List<String> expected = new ArrayList<>();
        builder(clean).onResult(r -> expected.add(row(r))).build().runToEnd();

        // the same events, the first half followed and stopped (checkpoint, sessions left open), then the rest
        final Path resumed = dir.resolve("resumed");
        final long half = copy(clean, resumed, 0, 15_000);
        final List<String> seen = new ArrayList<>();
        try (Pipeline first = builder(resumed).checkpointEvery(7_000).onResult(r -> seen.add(row(r))).build().start())
        {
            assertTrue(first.awaitOffset(half, 120, TimeUnit.SECONDS));
        }
        copy(clean, resumed, 15_000, 30_000);
        builder(resumed).onResult(r -> seen.add(row(r))).build().runToEnd();
        assertEquals(expected, seen, "sessions and their sketches restored from the checkpoint");
    }

    @Test
    void theOutputJournalCarriesTheAggregateAndAReplayVerifiesIt() throws IOException
    {
        final Path journal = fill(dir.resolve("durable"), 20_000, 30, 13);
        Weir.pipeline().journal(journal).window(SlidingWindows.of(400, 100)).outOfOrderness(30).aggregate(new Average())
            .checkpointEvery(3_000).build().runToEnd();
        final List<long[]> stored = new ArrayList<>();
        try (OutputJournal output = OutputJournal.open(JournalDirectory.open(journal)))
        {
            output.readAll(document ->
            {
                if (document.isResult())
                {
                    assertTrue(document.result().hasAggregate(), "a result without its aggregate");
                    stored.add(new long[] {document.result().count(), document.result().sum(), document.result().aggregate()});
                }
            });
        }
        assertFalse(stored.isEmpty());
        stored.forEach(row -> assertEquals(Math.floorDiv(row[1], row[0]), row[2]));

        // as if the process had died before its last checkpoints: the replay reproduces stored results,
        // aggregates included, and verifies them instead of writing them again
        final CheckpointStore store = new CheckpointStore(JournalDirectory.open(journal).checkpoints(), 3);
        final List<Path> files = store.files();
        Files.delete(files.get(files.size() - 1));
        Files.delete(files.get(files.size() - 2));
        final RunSummary again = Weir.pipeline().journal(journal).window(SlidingWindows.of(400, 100)).outOfOrderness(30)
            .aggregate(new Average()).checkpointEvery(3_000).build().runToEnd();
        assertTrue(again.suppressedOutputs() > 0, "outputs verified on replay: " + again);
    }

    @Test
    void aCheckpointTakenWithAnotherAggregationIsRefused() throws IOException
    {
        final Path journal = fill(dir.resolve("mismatch"), 1_000, 5, 3);
        Weir.pipeline().journal(journal).window(TumblingWindows.of(100)).aggregate(new Average()).build().runToEnd();
        assertThrows(CheckpointMismatchException.class,
            () -> Weir.pipeline().journal(journal).window(TumblingWindows.of(100)).aggregate(new ApproxDistinct()).build());
        assertThrows(CheckpointMismatchException.class, () -> Weir.pipeline().journal(journal).window(TumblingWindows.of(100)).build());
    }

    private static PipelineBuilder builder(final Path journal)
    {
        return Weir.pipeline().journal(journal).window(SessionWindows.withGap(40)).outOfOrderness(20).allowedLateness(30)
            .aggregate(new ApproxDistinct());
    }

    private static String row(final WindowResult r)
    {
        return r.windowStart() + "," + r.windowEnd() + "," + r.keyId() + "," + r.count() + "," + r.sum() + "," + r.version() + ","
            + r.aggregate();
    }

    /** Append events {@code from} (inclusive) to {@code to} (exclusive) of one journal to another; return the last offset. */
    private static long copy(final Path from, final Path to, final int first, final int end) throws IOException
    {
        final List<long[]> events = new ArrayList<>();
        final List<String> keys = new ArrayList<>();
        try (JournalReader reader = JournalReader.open(JournalDirectory.open(from));
             KeyDictionary dictionary = KeyDictionary.open(JournalDirectory.open(from)))
        {
            reader.poll((offset, id, time, key, value) -> events.add(new long[] {id, time, key, value}), Integer.MAX_VALUE);
            for (final long[] e : events.subList(first, end))
            {
                keys.add(dictionary.name((int)e[2]));
            }
        }
        long last = -1;
        try (EventJournal writer = EventJournal.openOrCreate(to))
        {
            for (int i = first; i < end; i++)
            {
                final long[] e = events.get(i);
                last = writer.append(e[0], e[1], keys.get(i - first), e[3]);
            }
        }
        return last;
    }

    private static Path fill(final Path journal, final int events, final int keys, final long seed) throws IOException
    {
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            final SplittableRandom random = new SplittableRandom(seed);
            for (int i = 0; i < events; i++)
            {
                // out of order by up to 60 ms, with a few later stragglers, so sessions merge and re-fire
                final long time = 1_000 + i / 2 - random.nextInt(60) - (random.nextInt(200) == 0 ? 70 : 0);
                writer.append(i, time, "k" + random.nextInt(keys), random.nextInt(1_000) - 300);
            }
        }
        return journal;
    }
}
