package dev.weir.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.weir.engine.aggregate.NamedAggregates;
import dev.weir.engine.fired.FiredResult;
import dev.weir.engine.fired.SkippedEvent;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The files of a pipeline with named aggregates, from its output journal: a results CSV, JSON Lines partitions and a
 * late-events CSV whose columns are the aggregates' names (a candle), each value at its aggregate's scale, an empty
 * field or {@code null} where the stored presence mask says the window has no value, late events without a value;
 * ISO-8601 instants as without them; a replay writes the engine's results so; a value, an aggregate named like a
 * key column, one that names no column and an early condition over the sum refused; and results stored with other
 * aggregates (another list, or none) refused with a message naming what they carry and what the rows need.
 */
class NamedAggregateFilesTest
{
    private static final long DAY = 86_400_000L;
    private static final JournalSchema TRADES = JournalSchema.parse("instrument:string,price:decimal(2),qty:long");
    private static final String CANDLE = "open=first(price),high=max(price),low=min(price),close=last(price),volume=sum(qty),"
        + "vwap=sum(price*qty)/sum(qty),trades=count()";
    private static final String HEADER = "window_start,window_end,instrument,open,high,low,close,volume,vwap,trades,version";

    @TempDir
    Path dir;

    private Path journal;

    /**
     * Three trades, the last one late, and an output journal as a candle pipeline writes it: 7 values and the presence
     * mask per result. The second window's only trade has quantity 0, so its vwap divides by zero: empty (bit 5 clear).
     */
    @BeforeEach
    void writeTheOutputJournal()
    {
        journal = dir.resolve("journal");
        final int acme;
        final int beta;
        try (EventJournal events = EventJournal.openOrCreate(journal, TRADES))
        {
            acme = events.stringId(0, "ACME");
            beta = events.stringId(0, "BETA,X");
            events.append(events.row().eventId(1).eventTime(1_000).setString(0, acme).setLong(1, 1250).setLong(2, 10));
            events.append(events.row().eventId(2).eventTime(61_000).setString(0, beta).setLong(1, 300).setLong(2, 0));
            events.append(events.row().eventId(3).eventTime(500).setString(0, acme).setLong(1, 1300).setLong(2, 1)); // late
        }
        try (OutputJournal output = OutputJournal.openForAppend(JournalDirectory.open(journal).pipeline(JournalDirectory.DEFAULT_PIPELINE)))
        {
            output.appendResult(candle(0, acme, 3, new long[] {1250, 1270, 1240, 1240, 35, 12_600_000, 3}, 0b111_1111), 8);
            output.appendResult(candle(60_000, beta, 1, new long[] {300, 300, 300, 300, 0, 0, 1}, 0b101_1111), 8);
            output.appendLate(new SkippedEvent().set(4, 500, acme, 0, 9));
            output.appendResult(candle(DAY, acme, 1, new long[] {-5, -5, -5, -5, 2, -5_000_000, 1}, 0b111_1111), 8);
        }
    }

    private static FiredResult candle(final long start, final int keyId, final long count, final long[] values, final long mask)
    {
        final FiredResult r = new FiredResult().window(start, start + 60_000).keyId(keyId).count(count).sourceOffset(0).withAggregates(8);
        for (int i = 0; i < values.length; i++)
        {
            r.withAggregate(i, values[i]);
        }
        return r.withAggregate(7, mask);
    }

    @Test
    void aResultsFileHasAColumnPerAggregateAtItsScaleAndAnEmptyFieldWithoutAValue() throws IOException
    {
        final Path results = dir.resolve("results.csv");
        final Path late = dir.resolve("late.csv");
        ResultFiles.of(journal, JournalDirectory.DEFAULT_PIPELINE).columns(columns(TimeFormat.epoch)).results(results).late(late).build().export();

        assertEquals(List.of(HEADER,
            "0,60000,ACME,12.50,12.70,12.40,12.40,35,12.600000,3,0",
            "60000,120000,\"BETA,X\",3.00,3.00,3.00,3.00,0,,1,0",
            DAY + "," + (DAY + 60_000) + ",ACME,-0.05,-0.05,-0.05,-0.05,2,-5.000000,1,0"), Files.readAllLines(results));
        assertEquals(List.of("event_id,event_time,instrument", "4,500,ACME"), Files.readAllLines(late), "no value column");
    }

    @Test
    void jsonLinesPartitionsHoldNullWhereTheWindowHasNoValue() throws IOException
    {
        final Path out = dir.resolve("out");
        ResultFiles.of(journal, JournalDirectory.DEFAULT_PIPELINE).columns(columns(TimeFormat.epoch)).partitions(out, PartitionedResults.Format.jsonl)
            .build().export();

        assertEquals(List.of(
                "{\"window_start\":0,\"window_end\":60000,\"instrument\":\"ACME\",\"open\":12.50,\"high\":12.70,\"low\":12.40,\"close\":12.40,"
                    + "\"volume\":35,\"vwap\":12.600000,\"trades\":3,\"version\":0}",
                "{\"window_start\":60000,\"window_end\":120000,\"instrument\":\"BETA,X\",\"open\":3.00,\"high\":3.00,\"low\":3.00,\"close\":3.00,"
                    + "\"volume\":0,\"vwap\":null,\"trades\":1,\"version\":0}"),
            Files.readAllLines(out.resolve("date=1970-01-01/results.jsonl")));
        assertEquals(1, Files.readAllLines(out.resolve("date=1970-01-02/results.jsonl")).size());
    }

    @Test
    void csvPartitionsAndIsoTimesHaveTheSameColumns() throws IOException
    {
        final Path out = dir.resolve("out");
        final Path late = dir.resolve("late.csv");
        ResultFiles.of(journal, JournalDirectory.DEFAULT_PIPELINE).columns(columns(TimeFormat.iso)).partitions(out, PartitionedResults.Format.csv)
            .late(late).build().export();

        assertEquals(List.of(HEADER,
                "1970-01-01T00:00:00Z,1970-01-01T00:01:00Z,ACME,12.50,12.70,12.40,12.40,35,12.600000,3,0",
                "1970-01-01T00:01:00Z,1970-01-01T00:02:00Z,\"BETA,X\",3.00,3.00,3.00,3.00,0,,1,0"),
            Files.readAllLines(out.resolve("date=1970-01-01/results.csv")));
        assertEquals(List.of(HEADER, "1970-01-02T00:00:00Z,1970-01-02T00:01:00Z,ACME,-0.05,-0.05,-0.05,-0.05,2,-5.000000,1,0"),
            Files.readAllLines(out.resolve("date=1970-01-02/results.csv")));
        assertEquals(List.of("event_id,event_time,instrument", "4,1970-01-01T00:00:00.500Z,ACME"), Files.readAllLines(late));
    }

    @Test
    void aReplayWritesTheEnginesResultsInTheSameColumns() throws IOException
    {
        final Path results = dir.resolve("replayed.csv");
        final Path late = dir.resolve("late.csv");
        ResultReplay.of(journal).columns(columns(TimeFormat.epoch)).pipeline(b -> b.keyColumn("instrument").aggregates(CANDLE)
            .window(TumblingWindows.of(60_000)).outOfOrderness(0).allowedLateness(0).latePolicy(LatePolicy.SIDE)).results(results).late(late)
            .build().run();

        assertEquals(List.of(HEADER,
            "0,60000,ACME,12.50,12.50,12.50,12.50,10,12.500000,1,0",
            "60000,120000,\"BETA,X\",3.00,3.00,3.00,3.00,0,,1,0"), Files.readAllLines(results), "BETA's vwap divides by zero: empty");
        assertEquals(List.of("event_id,event_time,instrument", "3,500,ACME"), Files.readAllLines(late));
    }

    @Test
    void aValueAnAggregateNamedLikeAKeyColumnOrAnEarlyConditionOverTheSumAreRefused()
    {
        final NamedAggregates candle = NamedAggregates.parse(CANDLE);
        final IllegalArgumentException value = assertThrows(IllegalArgumentException.class,
            () -> new RowColumns("instrument", "price", List.of(), false, null, null, TimeFormat.epoch, List.of(), candle));
        assertEquals("--value: with --aggregates, name the value in an aggregate, e.g. total=sum(amount)", value.getMessage());

        final Path results = dir.resolve("results.csv");
        final ExportRefusedException keyName = assertThrows(ExportRefusedException.class, () -> ResultFiles.of(journal, JournalDirectory.DEFAULT_PIPELINE)
            .columns(new RowColumns("instrument", null, List.of(), false, null, null, TimeFormat.epoch, List.of(),
                NamedAggregates.parse("instrument=count()"))).results(results).build().export());
        assertTrue(keyName.getMessage().startsWith("--aggregates: 'instrument' is a key column"), keyName.getMessage());
        final ExportRefusedException unknown = assertThrows(ExportRefusedException.class, () -> ResultFiles.of(journal, JournalDirectory.DEFAULT_PIPELINE)
            .columns(new RowColumns("instrument", null, List.of(), false, null, null, TimeFormat.epoch, List.of(),
                NamedAggregates.parse("total=sum(amount)"))).results(results).build().export());
        assertTrue(unknown.getMessage().startsWith("--aggregates: ") && unknown.getMessage().contains("amount"), unknown.getMessage());
        final ExportRefusedException early = assertThrows(ExportRefusedException.class, () -> ResultFiles.of(journal, JournalDirectory.DEFAULT_PIPELINE)
            .columns(new RowColumns("instrument", null, List.of(), false, "sum > 3", null, TimeFormat.epoch, List.of(), candle)).results(results)
            .build().export());
        assertTrue(early.getMessage().contains("no sum with --aggregates"), early.getMessage());
        assertTrue(Files.notExists(results), "no file written");
    }

    @Test
    void resultsStoredWithOtherAggregatesAreRefusedNamingBoth()
    {
        final Path results = dir.resolve("results.csv");
        final ExportRefusedException other = assertThrows(ExportRefusedException.class, () -> ResultFiles.of(journal, JournalDirectory.DEFAULT_PIPELINE)
            .columns(new RowColumns("instrument", null, List.of(), false, null, null, TimeFormat.epoch, List.of(), NamedAggregates.parse("n = count()")))
            .results(results).build().export());
        assertTrue(other.getMessage().startsWith("the output journal of pipeline 'default' holds results with 8 aggregate values, but "
            + "--aggregates 'n=count()' needs 2: one per aggregate and the presence mask"), other.getMessage());

        try (OutputJournal output = OutputJournal.openForAppend(JournalDirectory.open(journal).pipeline("plain")))
        {
            output.appendResult(new FiredResult().window(0, 60_000).keyId(0).count(1).sum(1250).min(1250).max(1250).sourceOffset(0), 0);
        }
        final ExportRefusedException plain = assertThrows(ExportRefusedException.class, () -> ResultFiles.of(journal, "plain")
            .columns(columns(TimeFormat.epoch)).partitions(dir.resolve("out"), PartitionedResults.Format.csv).build().export());
        assertTrue(plain.getMessage().startsWith("the output journal of pipeline 'plain' holds results with no aggregate values, but --aggregates '"
            + CANDLE + "' needs 8: one per aggregate and the presence mask"), plain.getMessage());
        assertTrue(Files.notExists(results) && Files.notExists(dir.resolve("out").resolve("date=1970-01-01")), "no file written");
    }

    private static RowColumns columns(final TimeFormat times)
    {
        return new RowColumns("instrument", null, List.of(), false, null, null, times, List.of(), NamedAggregates.parse(CANDLE));
    }
}
