package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.aggregate.Aggregation;
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
import dev.weir.journal.EventRow;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several user aggregations on one pipeline, one of them reading a column other than the value through
 * the whole event: each reports what it reports alone (tumbling, sliding, and sessions that merge), a
 * distinct count over a named column is exact for a few values, the output journal carries and a replay
 * verifies every aggregate, and a run resumed from a checkpoint reports what an uninterrupted one does.
 */
class SeveralAggregationsTest
{
    private static final JournalSchema PAYMENTS =
        JournalSchema.parse("card:string,merchant:string,country:string,amount:decimal(2),fee:long,channel:string");
    private static final WindowSpec[] SPECS = {TumblingWindows.of(500), SlidingWindows.of(500, 100), SessionWindows.withGap(40)};

    @TempDir
    Path dir;

    @Test
    void eachAggregationReportsWhatItReportsAlone() throws Exception
    {
        final Path journal = dir.resolve("payments");
        payments(journal, events(20_000, 11), 0, 20_000);
        for (final WindowSpec spec : SPECS)
        {
            final Map<String, long[]> together = run(journal, spec, new Average(), ApproxDistinct.of("merchant"), ApproxDistinct.of("fee"),
                new ApproxDistinct());
            assertFalse(together.isEmpty());
            final Aggregation[] alone = {new Average(), ApproxDistinct.of("merchant"), ApproxDistinct.of("fee"), new ApproxDistinct()};
            for (int i = 0; i < alone.length; i++)
            {
                final Map<String, long[]> single = run(journal, spec, alone[i]);
                assertEquals(together.keySet(), single.keySet(), spec.describe());
                for (final Map.Entry<String, long[]> row : together.entrySet())
                {
                    assertEquals(single.get(row.getKey())[0], row.getValue()[i], spec.describe() + " " + alone[i].name() + " of " + row.getKey());
                }
            }
        }
    }

    @Test
    void windowsReFireInThisStream() throws Exception
    {
        final Path journal = dir.resolve("refiring");
        payments(journal, events(20_000, 11), 0, 20_000);
        for (final WindowSpec spec : SPECS)
        {
            final long refired = run(journal, spec, new Average()).keySet().stream().filter(row -> !row.endsWith(",0")).count();
            assertTrue(refired > 0, spec.describe() + ": windows re-fire after late events change (or merge) them");
        }
    }

    @Test
    void aDistinctCountOfAColumnIsExactForAFewValues() throws Exception
    {
        final Path journal = dir.resolve("small");
        JournalDirectory.create(journal, PAYMENTS);
        final String[][] rows = {
            // card, merchant, fee; all in window [0, 1000)
            {"c1", "m1", "5"}, {"c1", "m2", "5"}, {"c1", "m1", "6"}, {"c1", "m3", "5"}, {"c2", "m1", "7"}, {"c2", "m1", "7"},
            {"c3", "m4", "1"}, {"c3", "m5", "2"}, {"c3", "m6", "3"}, {"c3", "m7", "4"}, {"c3", "m4", "1"},
        };
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            final EventRow row = writer.row();
            final int country = writer.stringId(2, "FR");
            final int channel = writer.stringId(5, "web");
            for (int i = 0; i < rows.length; i++)
            {
                row.eventId(i).eventTime(10 * i).setString(0, writer.stringId(0, rows[i][0])).setString(1, writer.stringId(1, rows[i][1]))
                    .setString(2, country).setLong(3, 100 * i).setLong(4, Long.parseLong(rows[i][2])).setString(5, channel);
                writer.append(row);
            }
        }
        final Map<String, String> seen = new LinkedHashMap<>();
        Weir.pipeline().journal(journal).keyColumn("card").valueColumn("amount").window(TumblingWindows.of(1_000))
            .aggregates(ApproxDistinct.of("merchant"), ApproxDistinct.of("fee"), new Average()).replayRange(-1, Long.MAX_VALUE)
            .onResult(r -> seen.put("card#" + r.keyId(), r.count() + " " + r.aggregate(0) + " " + r.aggregate(1) + " " + r.aggregate(2)))
            .build().runToEnd();
        // card ids in order of first use: c1 = 0, c2 = 1, c3 = 2; the mean of amounts 0, 100, 200, 300 is 150
        assertEquals(Map.of("card#0", "4 3 2 150", "card#1", "2 1 1 450", "card#2", "5 4 4 800"), seen);
    }

    @Test
    void theColumnsOfAJournalOfTheDefaultSchemaAreReadToo() throws Exception
    {
        final Path journal = dir.resolve("default");
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            final SplittableRandom random = new SplittableRandom(23);
            for (int i = 0; i < 5_000; i++)
            {
                writer.append(i, 1_000 + i / 2 - random.nextInt(60), "k" + random.nextInt(10), random.nextInt(300));
            }
        }
        final List<long[]> rows = new ArrayList<>();
        Weir.pipeline().journal(journal).window(SessionWindows.withGap(30)).outOfOrderness(30).allowedLateness(20)
            .aggregates(new ApproxDistinct(), ApproxDistinct.of("value"), ApproxDistinct.of("key")).replayRange(-1, Long.MAX_VALUE)
            .onResult(r -> rows.add(new long[] {r.aggregate(0), r.aggregate(1), r.aggregate(2)})).build().runToEnd();
        assertFalse(rows.isEmpty());
        for (final long[] row : rows)
        {
            assertEquals(row[0], row[1], "the value column, read as a column, counts as the value does");
            assertEquals(1, row[2], "a key's windows hold one key");
        }
    }

    @Test
    void theOutputJournalCarriesEveryAggregateAndAReplayVerifiesThem() throws Exception
    {
        final Path journal = dir.resolve("durable");
        payments(journal, events(10_000, 5), 0, 10_000);
        final RunSummary first = builder(journal, SlidingWindows.of(400, 100)).checkpointEvery(1_500).build().runToEnd();
        final List<String> stored = new ArrayList<>();
        try (OutputJournal output = OutputJournal.open(JournalDirectory.open(journal)))
        {
            output.readAll(document ->
            {
                if (document.isResult())
                {
                    assertEquals(3, document.result().aggregateCount(), "three aggregates in each result");
                    stored.add(document.result().toString());
                }
            });
        }
        assertFalse(stored.isEmpty());
        assertTrue(first.windowsFired() > 0);

        // as if the process had died before its last checkpoints: the replay reproduces stored results,
        // every aggregate included, and verifies them instead of writing them again
        final CheckpointStore store = new CheckpointStore(JournalDirectory.open(journal).checkpoints(), 3);
        final List<Path> files = store.files();
        Files.delete(files.get(files.size() - 1));
        Files.delete(files.get(files.size() - 2));
        final RunSummary again = builder(journal, SlidingWindows.of(400, 100)).checkpointEvery(1_500).build().runToEnd();
        assertTrue(again.suppressedOutputs() > 0, "outputs verified on replay: " + again);
    }

    @Test
    void aRunResumedFromACheckpointReportsWhatAnUninterruptedOneDoes() throws Exception
    {
        final List<long[]> events = events(30_000, 17);
        for (final WindowSpec spec : new WindowSpec[] {SlidingWindows.of(500, 100), SessionWindows.withGap(40)})
        {
            final String name = spec.describe().replace(':', '-').replace('/', '-');
            final Path clean = dir.resolve("clean-" + name);
            payments(clean, events, 0, events.size());
            final List<String> expected = new ArrayList<>();
            builder(clean, spec).onResult(r -> expected.add(row(r))).build().runToEnd();

            final Path resumed = dir.resolve("resumed-" + name);
            final long half = payments(resumed, events, 0, 15_000);
            final List<String> seen = new ArrayList<>();
            try (Pipeline first = builder(resumed, spec).checkpointEvery(4_000).onResult(r -> seen.add(row(r))).build().start())
            {
                assertTrue(first.awaitOffset(half, 120, TimeUnit.SECONDS));
            }
            payments(resumed, events, 15_000, events.size());
            final Pipeline second = builder(resumed, spec).onResult(r -> seen.add(row(r))).build();
            assertTrue(second.restoredFrom() != null, "resumed from a checkpoint");
            second.runToEnd();
            assertEquals(expected, seen, spec.describe() + ": windows and their aggregates restored from the checkpoint");
        }
    }

    @Test
    void aColumnThatIsMissingIsRefusedWithTheJournalsColumns() throws Exception
    {
        final Path journal = dir.resolve("missing");
        payments(journal, events(10, 1), 0, 10);
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> Weir.pipeline().journal(journal).keyColumn("card").valueColumn("amount").window(TumblingWindows.of(100))
                .aggregate(ApproxDistinct.of("shop")).conclude());
        assertTrue(refused.getMessage().contains("'shop'") && refused.getMessage().contains(PAYMENTS.toString()), refused.getMessage());
    }

    @Test
    void theConfigurationNamesEveryAggregationAndACheckpointMustMatchThem() throws Exception
    {
        final Path journal = dir.resolve("config");
        payments(journal, events(1_000, 3), 0, 1_000);
        final PipelineConfiguration several = builder(journal, TumblingWindows.of(100)).conclude();
        assertTrue(several.describe().contains(" aggregates=average+approx-distinct(64,merchant)+approx-distinct(64) "), several.describe());
        assertTrue(Weir.pipeline().journal(journal).keyColumn("card").valueColumn("amount").window(TumblingWindows.of(100))
            .aggregate(ApproxDistinct.of("merchant")).conclude().describe().contains(" aggregate=approx-distinct(64,merchant) "));
        several.build().runToEnd();
        assertThrows(CheckpointMismatchException.class, () -> Weir.pipeline().journal(journal).keyColumn("card").valueColumn("amount")
            .window(TumblingWindows.of(100)).aggregates(new Average(), ApproxDistinct.of("merchant")).build());
    }

    /** The pipeline of the durable tests: by card, over amount, three aggregations. */
    private static PipelineBuilder builder(final Path journal, final WindowSpec spec)
    {
        return Weir.pipeline().journal(journal).keyColumn("card").valueColumn("amount").window(spec).outOfOrderness(30).allowedLateness(50)
            .aggregates(new Average(), ApproxDistinct.of("merchant"), new ApproxDistinct());
    }

    /** Run a replay keyed by card over amount; return each result's aggregates by its identity and fields. */
    private static Map<String, long[]> run(final Path journal, final WindowSpec spec, final Aggregation... aggregations)
    {
        final Map<String, long[]> rows = new LinkedHashMap<>();
        Weir.pipeline().journal(journal).keyColumn("card").valueColumn("amount").window(spec).outOfOrderness(30).allowedLateness(50)
            .aggregates(aggregations).replayRange(-1, Long.MAX_VALUE).onResult(r ->
            {
                assertEquals(aggregations.length, r.aggregateCount());
                final long[] values = new long[r.aggregateCount()];
                for (int i = 0; i < values.length; i++)
                {
                    values[i] = r.aggregate(i);
                }
                assertEquals(values[0], r.aggregate(), "aggregate() is the first");
                assertTrue(rows.put(identity(r).toString(), values) == null, "each firing once");
            }).build().runToEnd();
        return rows;
    }

    /** A result's window, key, count, sum and version: the same with any aggregations. */
    private static StringBuilder identity(final WindowResult r)
    {
        return new StringBuilder().append(r.windowStart()).append(',').append(r.windowEnd()).append(',').append(r.keyId())
            .append(',').append(r.count()).append(',').append(r.sum()).append(',').append(r.version());
    }

    private static String row(final WindowResult r)
    {
        final StringBuilder b = identity(r);
        for (int i = 0; i < r.aggregateCount(); i++)
        {
            b.append(',').append(r.aggregate(i));
        }
        return b.toString();
    }

    /**
     * A seeded stream: time, card, merchant, country, amount, fee, channel; out of order by up to 60 ms with a
     * few later stragglers, so sessions merge and windows re-fire.
     */
    private static List<long[]> events(final int count, final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<long[]> events = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            final long time = 1_000 + i / 2 - random.nextInt(60) - (random.nextInt(200) == 0 ? 70 : 0);
            events.add(new long[] {time, random.nextInt(30), random.nextInt(1 + random.nextInt(40)), random.nextInt(4),
                random.nextInt(100_000) - 20_000, random.nextInt(12), random.nextInt(3)});
        }
        return events;
    }

    /**
     * Append events {@code from} (inclusive) to {@code to} (exclusive) to a payments journal, created if new.
     *
     * @return the offset of the last event appended.
     */
    private static long payments(final Path journal, final List<long[]> events, final int from, final int to) throws Exception
    {
        if (!Files.exists(journal))
        {
            JournalDirectory.create(journal, PAYMENTS);
        }
        long last = -1;
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            final EventRow row = writer.row();
            for (int i = from; i < to; i++)
            {
                final long[] e = events.get(i);
                row.eventId(i).eventTime(e[0]).setString(0, writer.stringId(0, "card-" + e[1])).setString(1, writer.stringId(1, "m" + e[2]))
                    .setString(2, writer.stringId(2, "C" + e[3])).setLong(3, e[4]).setLong(4, e[5])
                    .setString(5, writer.stringId(5, "ch" + e[6]));
                last = writer.append(row);
            }
        }
        return last;
    }
}
