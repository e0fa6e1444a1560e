package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.aggregate.Average;
import dev.weir.engine.checkpoint.CheckpointStore;
import dev.weir.engine.emit.LateEvent;
import dev.weir.engine.emit.WindowResult;
import dev.weir.engine.expr.ColumnProjection;
import dev.weir.engine.resume.CheckpointMismatchException;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.engine.window.WindowSpec;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRollCycle;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.TableAppender;
import dev.weir.journal.TableRow;
import dev.weir.journal.codec.ResultKind;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Named aggregates through whole pipelines: a candle per window kind (first and last by event time, ties by journal
 * order, across a session merge), in each layout and polled as an agent, with the presence mask in the output journal; an aggregate's filter
 * over a string the journal holds only later; empty values; early rows over names; a resumed run equal to an
 * uninterrupted one; joined columns in a value; the settings they exclude; and the configuration string.
 */
class NamedAggregatesPipelineTest
{
    private static final JournalSchema TRADES = JournalSchema.parse("sym:string,price:decimal(2),qty:long,side:string");
    private static final String CANDLE =
        "open=first(price),high=max(price),low=min(price),close=last(price),volume=sum(qty),vwap=sum(price*qty)/sum(qty),trades=count()";

    @TempDir
    Path dir;

    /** One trade: time, symbol, price in cents, quantity, side. */
    private record Trade(long time, String sym, long cents, long qty, String side)
    {
    }

    /**
     * AAA's five trades in [0, 1000) (two pairs of equal times: first is the earlier appended of t=100, last the later
     * of t=300), BBB's four sessions' trades (two at t=450, then one at t=280 that merges the sessions of t=100 and
     * t=450), and AAA's one trade of quantity 0 in [1000, 2000).
     */
    private static final List<Trade> CANDLE_TRADES = List.of(
        new Trade(100, "AAA", 10_00, 5, "buy"),
        new Trade(300, "AAA", 12_00, 1, "buy"),
        new Trade(200, "AAA", 9_00, 2, "buy"),
        new Trade(300, "AAA", 13_00, 2, "buy"),
        new Trade(100, "AAA", 8_00, 1, "buy"),
        new Trade(100, "BBB", 10_00, 1, "buy"),
        new Trade(450, "BBB", 20_00, 1, "buy"),
        new Trade(450, "BBB", 21_00, 1, "buy"),
        new Trade(280, "BBB", 15_00, 1, "buy"),
        new Trade(1_200, "AAA", 20_00, 0, "buy"));

    private static final String AAA_FIRST = "AAA,open=10.00,high=13.00,low=8.00,close=13.00,volume=11,vwap=10.363636,trades=5,v0";
    private static final String AAA_SECOND = "AAA,open=20.00,high=20.00,low=20.00,close=20.00,volume=0,vwap=,trades=1,v0";

    @ParameterizedTest
    @EnumSource(PipelineLayout.class)
    void aCandlePerWindowKindInEachLayout(final PipelineLayout layout) throws Exception
    {
        final Path journal = dir.resolve("trades");
        append(journal, CANDLE_TRADES);
        assertEquals(List.of("0,1000," + AAA_FIRST, "1000,2000," + AAA_SECOND),
            candles(journal, "tumbling", layout, TumblingWindows.of(1_000), "AAA"));
        assertEquals(List.of("-500,500," + AAA_FIRST, "0,1000," + AAA_FIRST, "500,1500," + AAA_SECOND, "1000,2000," + AAA_SECOND),
            candles(journal, "sliding", layout, SlidingWindows.of(1_000, 500), "AAA"));
        // the sessions of t=100 and of the two t=450 merge through t=280: the first is t=100's, the last the later t=450
        assertEquals(List.of("100,650,BBB,open=10.00,high=21.00,low=10.00,close=21.00,volume=4,vwap=16.500000,trades=4,v0"),
            candles(journal, "sessions", layout, SessionWindows.withGap(200), "BBB"));

        // the output journal stores the seven values and then the presence mask (vwap, bit 5, empty in the second)
        final List<long[]> stored = storedAggregates(journal, "tumbling");
        assertEquals(2, stored.size());
        assertEquals(List.of(1000L, 1300L, 800L, 1300L, 11L, 10_363_636L, 5L, 127L), boxed(stored.get(0)));
        assertEquals(List.of(2000L, 2000L, 2000L, 2000L, 0L, 0L, 1L, 127L & ~(1L << 5)), boxed(stored.get(1)));
    }

    @Test
    void anAgentPollingThePipelineGivesTheSameCandle() throws Exception
    {
        final Path journal = dir.resolve("agent");
        final long last = append(journal, CANDLE_TRADES);
        final List<String> rows = new CopyOnWriteArrayList<>();
        final List<Throwable> errors = new CopyOnWriteArrayList<>();
        try (Pipeline pipeline = Weir.pipeline().journal(journal).keyColumn("sym").where("sym = 'AAA'").window(SlidingWindows.of(1_000, 500))
            .outOfOrderness(500).aggregates(CANDLE).onResult(r -> rows.add(row(r))).build())
        {
            final AgentRunner runner = new AgentRunner(new BackoffIdleStrategy(), errors::add, null, pipeline.asAgent());
            AgentRunner.startOnThread(runner);
            assertTrue(pipeline.awaitOffset(last, 120, TimeUnit.SECONDS));
            runner.close();
            pipeline.stop();
        }
        assertEquals(List.of(), errors);
        // the last trade's watermark, 700, fires the one window that ends before it
        assertEquals(List.of("-500,500," + AAA_FIRST), rows);
    }

    @Test
    void anAggregatesFilterMatchesAStringTheJournalHoldsOnlyLater() throws Exception
    {
        final Path journal = dir.resolve("later");
        final long before = append(journal, List.of(new Trade(100, "AAA", 10_00, 5, "buy"), new Trade(200, "AAA", 11_00, 1, "buy")));
        final List<String> rows = new CopyOnWriteArrayList<>();
        try (Pipeline pipeline = Weir.pipeline().journal(journal).keyColumn("sym").window(TumblingWindows.of(1_000))
            .aggregates("sells=count() filter (where side = 'sell'),sold=sum(qty) filter (where side='sell'),n=count()")
            .onResult(r -> rows.add(row(r))).build().start())
        {
            assertTrue(pipeline.awaitOffset(before, 120, TimeUnit.SECONDS));
            // 'sell' enters the journal's dictionary only now, after the run compiled the aggregates' filters
            final long last = append(journal, List.of(new Trade(300, "AAA", 12_00, 3, "sell"), new Trade(400, "AAA", 12_00, 4, "sell"),
                new Trade(5_000, "AAA", 1_00, 1, "buy")));
            assertTrue(pipeline.awaitOffset(last, 120, TimeUnit.SECONDS));
        }
        assertEquals(List.of("0,1000,AAA,sells=2,sold=7,n=4,v0"), rows);
    }

    @Test
    void anAggregateOverNoMatchingEventIsEmptyAndSoIsADivisionByZero() throws Exception
    {
        final Path journal = dir.resolve("empty");
        append(journal, List.of(new Trade(100, "AAA", 10_00, 0, "buy"), new Trade(200, "AAA", 11_00, 0, "buy"),
            new Trade(300, "BBB", 12_00, 2, "sell")));
        final List<WindowResult> copies = new ArrayList<>();
        final List<String> rows = new ArrayList<>();
        final RunSummary summary = Weir.pipeline().journal(journal).keyColumn("sym").window(TumblingWindows.of(1_000))
            .aggregates("sells=count() filter (where side='sell'),sold=sum(qty) filter (where side='sell'),lastsell=last(price) filter "
                + "(where side='sell'),vwap=sum(price*qty)/sum(qty),distinct=approx_distinct(side) filter (where side='sell')")
            .onResult(r ->
            {
                rows.add(row(r));
                if (r.key().toString().equals("AAA"))
                {
                    assertEquals(5, r.aggregateCount(), "the presence mask is not an aggregate");
                    assertEquals("sold", r.aggregateName(1));
                    assertEquals(2, r.aggregateScale(2));
                    assertEquals(6, r.aggregateScale(3));
                    assertTrue(r.hasAggregate(0), "a count is never empty");
                    assertFalse(r.hasAggregate(1));
                    assertEquals(0, r.aggregate(1), "an empty value reads 0");
                    assertFalse(r.hasAggregate(2));
                    assertFalse(r.hasAggregate(3), "sum(qty) is 0: a division by zero is empty");
                    assertTrue(r.hasAggregate(4), "an approximate distinct count is never empty");
                    copies.add(r);
                }
            }).build().runToEnd();
        assertEquals(List.of("0,1000,AAA,sells=0,sold=,lastsell=,vwap=,distinct=0,v0",
            "0,1000,BBB,sells=1,sold=2,lastsell=12.00,vwap=12.000000,distinct=1,v0"), rows);
        assertEquals(1, copies.size());
        assertEquals(0, summary.valuesWrapped());
    }

    @Test
    void earlyRowsCompareTheAggregatesByNameAndAnEmptyOneComparesFalse() throws Exception
    {
        final Path journal = dir.resolve("early");
        final List<Trade> trades = List.of(
            new Trade(1, "c1", 5_00, 0, "declined"),
            new Trade(2, "c1", 600_00, 0, "approved"),
            new Trade(3, "c1", 5_00, 0, "declined"),
            new Trade(4, "c1", 5_00, 0, "declined"),
            new Trade(5, "c1", 500_00, 0, "approved"),  // three declines and 1,100.00 approved: the early row
            new Trade(6, "c1", 5_00, 0, "declined"),
            new Trade(7, "c2", 5_00, 0, "declined"),
            new Trade(8, "c2", 5_00, 0, "declined"),
            new Trade(9, "c2", 5_00, 0, "declined"));
        final long[] offsets = appendAll(journal, trades);
        final String list = "declines=count() filter (where side='declined'),approved=sum(price) filter (where side='approved')";
        assertEquals(List.of(early("c1", offsets[4]), "0,10000,c1,declines=4,approved=1100.00,v0", "0,10000,c2,declines=3,approved=,v0"),
            earlyRows(journal, "both", list, "declines >= 3 and approved > 1000.00"));
        // c2 approved nothing: 'approved < 5000.00' is false for it, not true of 0
        assertEquals(List.of(early("c1", offsets[1]), "0,10000,c1,declines=4,approved=1100.00,v0", "0,10000,c2,declines=3,approved=,v0"),
            earlyRows(journal, "empty", list, "approved < 5000.00"));
        // count, when no aggregate has that name, is the window's events
        assertEquals(early("c1", offsets[2]), earlyRows(journal, "count", list, "count >= 3 and approved > 0").get(0));

        final PipelineBuilder sum = Weir.pipeline().keyColumn("sym").window(TumblingWindows.of(10_000)).aggregates(list).earlyWhen("sum > 5");
        assertEquals("early condition 'sum > 5' at position 1: no sum with --aggregates: name one, e.g. total=sum(amount)",
            assertThrows(IllegalArgumentException.class, () -> sum.concludeFor(TRADES)).getMessage());
        final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> Weir.pipeline().keyColumn("sym")
            .window(TumblingWindows.of(10_000)).aggregates(list).earlyWhen("declines > 1 and refunds > 2").concludeFor(TRADES));
        assertTrue(unknown.getMessage().contains("unknown aggregate 'refunds'") && unknown.getMessage().contains("declines, approved"),
            unknown.getMessage());
    }

    @Test
    void aResumedRunReportsWhatAnUninterruptedOneDoes() throws Exception
    {
        final List<Trade> trades = randomTrades(20_000, 7);
        final String list = "open=first(price),close=last(price),hi=max(price) filter (where side='sell'),volume=sum(qty),"
            + "buys=count() filter (where side = 'buy'),vwap=sum(price*qty)/sum(qty),spread=hi-min(price),mean=avg(qty),sides=approx_distinct(side)";
        for (final WindowSpec spec : new WindowSpec[] {SlidingWindows.of(500, 100), SessionWindows.withGap(40)})
        {
            final String name = spec.describe().replace(':', '-').replace('/', '-');
            final Path clean = dir.resolve("clean-" + name);
            append(clean, trades);
            final List<String> expected = new ArrayList<>();
            random(clean, spec, list).onResult(r -> expected.add(row(r))).build().runToEnd();
            assertTrue(expected.stream().anyMatch(row -> !row.endsWith(",v0")), "windows re-fire");
            assertTrue(expected.stream().anyMatch(row -> row.contains(",hi=,")), "some windows have no sell");

            final Path resumed = dir.resolve("resumed-" + name);
            final long half = append(resumed, trades.subList(0, 10_000));
            final List<String> seen = new ArrayList<>();
            try (Pipeline first = random(resumed, spec, list).checkpointEvery(3_000).onResult(r -> seen.add(row(r))).build().start())
            {
                assertTrue(first.awaitOffset(half, 60, TimeUnit.SECONDS));
            }
            append(resumed, trades.subList(10_000, trades.size()));
            final Pipeline second = random(resumed, spec, list).onResult(r -> seen.add(row(r))).build();
            assertNotNull(second.restoredFrom(), "resumed from a checkpoint");
            second.runToEnd();
            assertEquals(expected, seen, spec.describe() + ": the aggregates' states restored from the checkpoint");
        }
    }

    @Test
    void aReplayAfterACrashVerifiesTheStoredValuesAndPresenceMasks() throws Exception
    {
        final Path journal = dir.resolve("crash");
        append(journal, randomTrades(10_000, 5));
        final String list = "hi=max(price) filter (where side='sell'),vwap=sum(price*qty)/sum(qty),n=count()";
        random(journal, SlidingWindows.of(400, 100), list).checkpointEvery(1_500).build().runToEnd();
        final List<long[]> stored = storedAggregates(journal, JournalDirectory.DEFAULT_PIPELINE);
        assertTrue(stored.stream().anyMatch(longs -> longs[3] == 0b110), "some windows have no sell: " + stored.size());
        // as if the process had died before its last two checkpoints: the replay reproduces the stored results, empty
        // values and masks included, and verifies them (a difference would fail the run) instead of writing them again
        final CheckpointStore store = new CheckpointStore(JournalDirectory.open(journal).checkpoints(), 3);
        final List<Path> files = store.files();
        Files.delete(files.get(files.size() - 1));
        Files.delete(files.get(files.size() - 2));
        final RunSummary again = random(journal, SlidingWindows.of(400, 100), list).checkpointEvery(1_500).build().runToEnd();
        assertTrue(again.suppressedOutputs() > 0, "outputs verified on replay: " + again);
        assertEquals(stored.size(), storedAggregates(journal, JournalDirectory.DEFAULT_PIPELINE).size(), "nothing written twice");
    }

    @Test
    void aValueMayNameAJoinedTablesColumn() throws Exception
    {
        final Path journal = dir.resolve("joined");
        final TableDefinition fx = TableDefinition.parse("fx", "sym", "sym:string,rate:decimal(4)");
        JournalDirectory.openOrCreateForTable(journal, fx, JournalRollCycle.DEFAULT);
        try (EventJournal writer = EventJournal.openOrCreate(journal, TRADES))
        {
            final TableAppender rates = writer.table("fx");
            final TableRow rate = rates.row();
            rates.upsert(rate.clear().validFrom(0).setString(0, "EUR").setLong(1, 1_1000));
            appendTo(writer, new Trade(100, "EUR", 10_00, 1, "buy"));
            rates.upsert(rate.clear().validFrom(150).setString(0, "EUR").setLong(1, 1_2000));
            appendTo(writer, new Trade(200, "EUR", 20_00, 1, "buy"));
            appendTo(writer, new Trade(300, "EUR", 30_00, 1, "sell"));
        }
        final List<String> rows = new ArrayList<>();
        Weir.pipeline().journal(journal).keyColumn("sym").window(TumblingWindows.of(1_000)).join("fx")
            .aggregates("usd=sum(price*fx.rate),dear=count() filter (where fx.rate > 1.1500 and side = 'buy')")
            .replayRange(-1, Long.MAX_VALUE).onResult(r -> rows.add(row(r))).build().runToEnd();
        // 10.00 x 1.1, then 20.00 and 30.00 x 1.2, at scale 2 + 4
        assertEquals(List.of("0,1000,EUR,usd=71.000000,dear=1,v0"), rows);
    }

    @Test
    void aLateEventOfAPipelineOfNamedAggregatesHasTheValue0() throws Exception
    {
        final Path journal = dir.resolve("late");
        append(journal, List.of(new Trade(2_000, "AAA", 10_00, 5, "buy"), new Trade(100, "AAA", 11_00, 7, "buy")));
        final List<LateEvent> late = new ArrayList<>();
        final List<Long> values = new ArrayList<>();
        Weir.pipeline().journal(journal).keyColumn("sym").window(TumblingWindows.of(1_000)).latePolicy(LatePolicy.SIDE)
            .aggregates("volume=sum(qty)").onLate(e ->
            {
                late.add(e);
                values.add(e.value());
            }).build().runToEnd();
        assertEquals(1, late.size());
        assertEquals(List.of(0L), values);
    }

    @Test
    void aValueOrUserAggregationsBesideThemOrAnAggregateNamedLikeAKeyColumnAreRefused()
    {
        assertEquals(PipelineConfiguration.VALUE_WITH_AGGREGATES, assertThrows(IllegalArgumentException.class,
            () -> Weir.pipeline().keyColumn("sym").valueColumn("price").window(TumblingWindows.of(1_000)).aggregates(CANDLE).concludeFor(TRADES))
            .getMessage());
        assertEquals("--value: with --aggregates, name the value in an aggregate, e.g. total=sum(amount)", assertThrows(IllegalArgumentException.class,
            () -> Weir.pipeline().keyColumn("sym").aggregates(CANDLE).value("price * qty").window(TumblingWindows.of(1_000)).concludeFor(TRADES))
            .getMessage());
        assertEquals("--aggregate and --aggregates exclude each other: name the aggregation in --aggregates",
            assertThrows(IllegalArgumentException.class, () -> Weir.pipeline().keyColumn("sym").aggregate(new Average())
                .window(TumblingWindows.of(1_000)).aggregates(CANDLE).concludeFor(TRADES)).getMessage());
        final IllegalArgumentException key = assertThrows(IllegalArgumentException.class,
            () -> Weir.pipeline().keyColumns("sym", "side").window(TumblingWindows.of(1_000)).aggregates("n=count(),side=max(qty)").concludeFor(TRADES));
        assertTrue(key.getMessage().contains("'side' is a key column"), key.getMessage());
    }

    @Test
    void theConfigurationCarriesTheNormalisedListAndACheckpointMustMatchIt() throws Exception
    {
        final PipelineConfiguration plain = Weir.pipeline().keyColumn("sym").valueColumn("price").window(TumblingWindows.of(1_000)).concludeFor(TRADES);
        assertEquals("tumbling:1000 outOfOrderness=0 allowedLateness=0 late=DROP dedupe=false key=sym value=price", plain.describe(),
            "a pipeline without named aggregates keeps its configuration string");
        assertNull(plain.namedAggregates());

        final PipelineConfiguration named = Weir.pipeline().keyColumn("sym").window(TumblingWindows.of(1_000))
            .aggregates("n = count( ) , total=sum( qty )").concludeFor(TRADES);
        assertEquals("tumbling:1000 outOfOrderness=0 allowedLateness=0 late=DROP dedupe=false key=sym value=0 named="
            + named.namedAggregates().definitions().text(), named.describe());
        assertEquals("n=count(),total=sum(qty)", named.namedAggregates().definitions().text());
        assertFalse(named.projection().hasValue());
        assertEquals(0, ColumnProjection.keyColumnsOf(TRADES, named.describe())[0], "the key part is read back");
        assertTrue(named.aggregations().isEmpty(), "no user aggregations");

        final Path journal = dir.resolve("config");
        append(journal, List.of(new Trade(100, "AAA", 10_00, 5, "buy")));
        Weir.pipeline().journal(journal).keyColumn("sym").window(TumblingWindows.of(1_000)).aggregates("n=count(),total=sum(qty)").build().runToEnd();
        assertThrows(CheckpointMismatchException.class, () -> Weir.pipeline().journal(journal).keyColumn("sym").window(TumblingWindows.of(1_000))
            .aggregates("n=count(),total=max(qty)").build());
    }

    /** @return the aggregate longs of each result a pipeline of the journal stored, in order. */
    @Test
    void aNamedSumThatWrapsIsCountedAsTheEnginesSumIs() throws Exception
    {
        final Path journal = dir.resolve("wraps");
        final long big = Long.MAX_VALUE / 2 + 1;
        append(journal, List.of(new Trade(100, "AAA", 1_00, big, "buy"), new Trade(200, "AAA", 1_00, big, "buy"),
            new Trade(300, "AAA", 1_00, 1, "buy"), new Trade(400, "BBB", 1_00, 1, "buy")));
        final List<String> rows = new ArrayList<>();
        final RunSummary summary = Weir.pipeline().journal(journal).keyColumn("sym").window(TumblingWindows.of(1_000))
            .aggregates("volume=sum(qty),mean=avg(qty)").onResult(r -> rows.add(row(r))).build().runToEnd();
        // big + big = 2^63: the second addition wraps in both sums (avg keeps its own), the third does not; the mean of
        // the wrapped sum does not fit a long at scale 6, so it is empty
        assertEquals(List.of("0,1000,AAA,volume=-9223372036854775807,mean=,v0", "0,1000,BBB,volume=1,mean=1.000000,v0"),
            rows);
        assertEquals(1, summary.sumsWrapped(), "an addition to a window counts once, however many of its sums wrapped");
        assertEquals(0, summary.valuesWrapped());
    }

    private static List<long[]> storedAggregates(final Path journal, final String pipeline)
    {
        final List<long[]> stored = new ArrayList<>();
        try (OutputJournal output = OutputJournal.open(JournalDirectory.open(journal).pipeline(pipeline)))
        {
            output.readAll(document ->
            {
                if (document.isResult())
                {
                    final long[] longs = new long[document.result().aggregateCount()];
                    for (int i = 0; i < longs.length; i++)
                    {
                        longs[i] = document.result().aggregate(i);
                    }
                    stored.add(longs);
                }
            });
        }
        return stored;
    }

    /** Run a candle of one symbol as a named durable pipeline of the journal; @return its rows, ordered by window. */
    private static List<String> candles(final Path journal, final String pipeline, final PipelineLayout layout, final WindowSpec spec,
        final String symbol)
    {
        final List<String> rows = new CopyOnWriteArrayList<>();
        Weir.pipeline().journal(journal).pipeline(pipeline).layout(layout).keyColumn("sym").where("sym = '" + symbol + "'").window(spec)
            .outOfOrderness(500).aggregates(CANDLE).onResult(r -> rows.add(row(r))).build().runToEnd();
        final List<String> sorted = new ArrayList<>(rows);
        sorted.sort((a, b) -> Long.compare(Long.parseLong(a.substring(0, a.indexOf(','))), Long.parseLong(b.substring(0, b.indexOf(',')))));
        return sorted;
    }

    /** The early and final rows of a tumbling pipeline of 10 s by symbol; early rows as {@link #early}. */
    private static List<String> earlyRows(final Path journal, final String pipeline, final String list, final String condition)
    {
        final List<String> rows = new ArrayList<>();
        Weir.pipeline().journal(journal).pipeline(pipeline).keyColumn("sym").window(TumblingWindows.of(10_000)).aggregates(list)
            .earlyWhen(condition).onResult(r -> rows.add(r.kind() == ResultKind.EARLY ? early(r.key().toString(), r.sourceOffset()) : row(r)))
            .build().runToEnd();
        return rows;
    }

    private static String early(final String key, final long offset)
    {
        return "early " + key + " @" + offset;
    }

    /** The pipeline of the resume test: by symbol, late events re-firing windows. */
    private static PipelineBuilder random(final Path journal, final WindowSpec spec, final String list)
    {
        return Weir.pipeline().journal(journal).keyColumn("sym").window(spec).outOfOrderness(30).allowedLateness(50).aggregates(list);
    }

    /** @return {@code start,end,key,name=value,...,vVERSION}: each value at its scale, empty when the window has none. */
    private static String row(final WindowResult r)
    {
        final StringBuilder b = new StringBuilder().append(r.windowStart()).append(',').append(r.windowEnd()).append(',').append(r.key());
        for (int i = 0; i < r.aggregateCount(); i++)
        {
            b.append(',').append(r.aggregateName(i)).append('=');
            if (r.hasAggregate(i))
            {
                b.append(java.math.BigDecimal.valueOf(r.aggregate(i), r.aggregateScale(i)).toPlainString());
            }
        }
        return b.append(",v").append(r.version()).toString();
    }

    private static List<Long> boxed(final long[] longs)
    {
        return java.util.Arrays.stream(longs).boxed().toList();
    }

    /** A seeded stream of 30 symbols, out of order by up to 60 ms with a few later stragglers. */
    private static List<Trade> randomTrades(final int count, final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<Trade> trades = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            final long time = 1_000 + i / 2 - random.nextInt(60) - (random.nextInt(200) == 0 ? 70 : 0);
            trades.add(new Trade(time, "S" + random.nextInt(30), 1_00 + random.nextInt(10_000), random.nextInt(5),
                random.nextInt(4) == 0 ? "sell" : "buy"));
        }
        return trades;
    }

    /** Append trades to a trades journal, created if new; @return the last one's offset. */
    private static long append(final Path journal, final List<Trade> trades)
    {
        final long[] offsets = appendAll(journal, trades);
        return offsets[offsets.length - 1];
    }

    /** @return the offsets of the trades appended. */
    private static long[] appendAll(final Path journal, final List<Trade> trades)
    {
        if (!Files.exists(journal))
        {
            JournalDirectory.create(journal, TRADES);
        }
        final long[] offsets = new long[trades.size()];
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            for (int i = 0; i < offsets.length; i++)
            {
                offsets[i] = appendTo(writer, trades.get(i));
            }
        }
        return offsets;
    }

    private static long appendTo(final EventJournal writer, final Trade trade)
    {
        return writer.append(writer.row().eventId(trade.time() * 31 + trade.cents()).eventTime(trade.time())
            .setString(0, writer.stringId(0, trade.sym())).setLong(1, trade.cents()).setLong(2, trade.qty())
            .setString(3, writer.stringId(3, trade.side())));
    }
}
