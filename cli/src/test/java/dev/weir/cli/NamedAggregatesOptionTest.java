package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --aggregates LIST} on the command line: the candles (open, high, low, close, volume, vwap, trades)
 * and its fraud decline counter with an early condition over the named aggregates, against values computed by
 * hand; a replay gives the run's rows, a named pipeline its own aggregates; every mistake in the list or beside it is refused with one {@code weir: ...}
 * line and exit 2, before anything is ingested.
 */
class NamedAggregatesOptionTest
{
    private static final String CANDLES = "open=first(price),high=max(price),low=min(price),close=last(price),volume=sum(qty),"
        + "vwap=sum(price*qty)/sum(qty),trades=count()";
    private static final String TRADE_COLUMNS = "instrument:string,price:decimal(2),qty:long";
    private static final String DECLINES = "declines=count() filter (where status = 'declined'),"
        + "approved=sum(amount) filter (where status = 'approved')";

    @TempDir
    Path dir;

    @Test
    void candlesPerInstrumentAreTheValuesComputedByHand() throws IOException
    {
        final Path journal = dir.resolve("journal");
        final Path results = dir.resolve("candles.csv");
        final Cli run = Cli.run("run", "--input", trades().toString(), "--journal", journal.toString(), "--columns", TRADE_COLUMNS,
            "--key", "instrument", "--window", "tumbling:10s", "--out-of-orderness", "5s", "--aggregates", CANDLES, "--results",
            results.toString());
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains(", key instrument, aggregates " + CANDLES), run.out());
        // ABC's first trade by event time came last (500 ms); XYZ's two trades at 4,000 ms are first and last in journal order;
        // vwap = 3587.00 / 360 = 9.9638888..., rounded half-even at scale 6; ABC's second window traded no quantity: no vwap
        final List<String> expected = List.of(
            "window_start,window_end,instrument,open,high,low,close,volume,vwap,trades,version",
            "0,10000,ABC,10.20,10.50,9.80,9.80,360,9.963889,4,0",
            "0,10000,XYZ,20.00,21.00,20.00,21.00,8,20.375000,2,0",
            "10000,20000,ABC,11.00,11.00,11.00,11.00,0,,1,0");
        assertEquals(expected, Files.readAllLines(results));

        final Path replayed = dir.resolve("replayed.csv");
        final Cli replay = Cli.run("replay", "--journal", journal.toString(), "--key", "instrument", "--window", "tumbling:10s",
            "--out-of-orderness", "5s", "--aggregates", CANDLES.replace(",", " , ").replace("=", " = "), "--results", replayed.toString());
        assertEquals(0, replay.exit(), replay.err());
        assertEquals(expected, Files.readAllLines(replayed), "a replay gives the run's rows");

        final Cli other = Cli.run("run", "--journal", journal.toString(), "--key", "instrument", "--window", "tumbling:10s",
            "--out-of-orderness", "5s", "--aggregates", "trades=count()", "--results", dir.resolve("other.csv").toString());
        assertEquals(WeirCommand.USAGE, other.exit(), "the named aggregates are part of the checkpointed configuration: " + other.err());

        final Path volumes = dir.resolve("volumes.csv");
        final Cli pipeline = Cli.run("run", "--journal", journal.toString(), "--pipeline", "volumes", "--key", "instrument", "--window",
            "tumbling:10s", "--out-of-orderness", "5s", "--aggregates", "volume=sum(qty)", "--results", volumes.toString());
        assertEquals(0, pipeline.exit(), pipeline.err());
        assertEquals(List.of("window_start,window_end,instrument,volume,version", "0,10000,ABC,360,0", "0,10000,XYZ,8,0", "10000,20000,ABC,0,0"),
            Files.readAllLines(volumes), "a named pipeline of other aggregates over the same events");
    }

    @Test
    void theDeclineCounterRaisesAnEarlyRowWhenBothNamedAggregatesCross() throws IOException
    {
        final Path journal = dir.resolve("journal");
        final Path results = dir.resolve("fraud.csv");
        final Cli run = Cli.run("run", "--input", payments().toString(), "--journal", journal.toString(), "--columns",
            "card:string,status:string,amount:decimal(2)", "--key", "card", "--window", "tumbling:1m", "--aggregates", DECLINES,
            "--early-when", "declines >= 3 and approved > 1000.00", "--results", results.toString());
        assertEquals(0, run.exit(), run.err());
        // c1 crosses at its third decline (event 8: approved 1,100.00); c2 has three declines but no approved amount (empty: the
        // comparison is false); c3 has no decline
        assertEquals(List.of(
            "window_start,window_end,card,declines,approved,version,kind",
            "0,60000,c1,3,1100.00,0,early",
            "0,60000,c1,3,1110.00,0,final",
            "0,60000,c2,3,,0,final",
            "0,60000,c3,0,2000.00,0,final"), Files.readAllLines(results));

        final Path counted = dir.resolve("counted.csv");
        final Cli replay = Cli.run("replay", "--journal", journal.toString(), "--key", "card", "--window", "tumbling:1m", "--aggregates",
            DECLINES, "--early-when", "count >= 4", "--results", counted.toString());
        assertEquals(0, replay.exit(), replay.err());
        assertEquals("0,60000,c1,2,1100.00,0,early", Files.readAllLines(counted).get(1),
            "count, not a name, is the window's event count: c1's fourth event");
    }

    @Test
    void everyMistakeIsRefusedWithOneLineAndExitTwoBeforeAnythingIsIngested() throws IOException
    {
        final Path input = trades();
        final StringBuilder sixteen = new StringBuilder();
        for (int i = 0; i < 16; i++)
        {
            sixteen.append(i == 0 ? "" : ",").append("a").append(i).append("=count()");
        }
        refused(input, "weir: --aggregates: ", "unknown function 'median' at position 8", "--aggregates", "trades=median(price)");
        refused(input, "weir: --aggregates: ", "unknown column 'prize'", "--aggregates", "volume=sum(qty),p=max(prize)");
        refused(input, "weir: --aggregates: ", "reserved name 'version'", "--aggregates", "version=count()");
        refused(input, "weir: --aggregates: ", "repeated name 'volume'", "--aggregates", "volume=sum(qty),volume=count()");
        refused(input, "weir: --aggregates: ", "more than 15", "--aggregates", sixteen.toString());
        refused(input, "weir: --aggregates: ", "more than 18", "--aggregates", "p=sum(price*price*price*price*price*price*price*price*price*price)");
        refused(input, "weir: --aggregates: ", "'instrument' is a key column", "--aggregates", "instrument=count()");
        refused(input, "weir: --value: with --aggregates, name the value in an aggregate, e.g. total=sum(amount)", "", "--aggregates",
            "trades=count()", "--value", "price");
        refused(input, "weir: --aggregate and --aggregates exclude each other: name the aggregation in --aggregates", "", "--aggregates",
            "trades=count()", "--aggregate", "average");
        refused(input, "weir: ", "unknown aggregate 'volumes'", "--aggregates", "volume=sum(qty)", "--early-when", "volumes > 3");
        refused(input, "weir: ", "no sum with --aggregates: name one, e.g. total=sum(amount)", "--aggregates", "volume=sum(qty)",
            "--early-when", "sum > 3");
        final Cli replay = Cli.run("replay", "--journal", dir.resolve("none").toString(), "--window", "tumbling:10s", "--aggregates",
            "n=count(", "--results", dir.resolve("y.csv").toString());
        assertEquals(WeirCommand.USAGE, replay.exit(), replay.err());
        assertTrue(replay.err().startsWith("weir: --aggregates: aggregates 'n=count(': ") && replay.err().contains("at position 9"), replay.err());
    }

    @Test
    void aPipelineWhoseResultsWereStoredWithOtherAggregatesIsRefusedBeforeAnyExport() throws IOException
    {
        final Path journal = dir.resolve("journal");
        final Path first = dir.resolve("first.csv");
        final Cli plain = Cli.run("run", "--input", trades().toString(), "--journal", journal.toString(), "--columns", TRADE_COLUMNS, "--key",
            "instrument", "--value", "price", "--window", "tumbling:10s", "--results", first.toString());
        assertEquals(0, plain.exit(), plain.err());
        for (final String list : List.of("volume=sum(qty)", CANDLES))
        {
            final Path results = dir.resolve("results.csv");
            final Cli named = Cli.run("run", "--journal", journal.toString(), "--key", "instrument", "--window", "tumbling:10s", "--aggregates",
                list, "--results", results.toString());
            assertEquals(WeirCommand.USAGE, named.exit(), named.err());
            assertEquals(1, named.errorLines(), named.err());
            assertTrue(named.err().startsWith("weir: the journal was processed with [") && named.err().contains("value=price]")
                && named.err().contains("named=" + list + "]"), named.err());
            assertFalse(Files.exists(results), "nothing exported: " + named.err());
        }
    }

    /**
     * Run {@code weir run} with the trades' columns and the flags given, and check it is refused: exit 2, one line on standard
     * error that starts with {@code start} and contains {@code detail}, no journal created.
     */
    private void refused(final Path input, final String start, final String detail, final String... flags)
    {
        final Path journal = dir.resolve("refused");
        final List<String> args = new ArrayList<>(List.of("run", "--input", input.toString(), "--journal", journal.toString(), "--columns",
            TRADE_COLUMNS, "--key", "instrument", "--window", "tumbling:10s", "--results", dir.resolve("x.csv").toString()));
        args.addAll(List.of(flags));
        final Cli run = Cli.run(args.toArray(String[]::new));
        final String what = String.join(" ", flags) + ": " + run.err();
        assertEquals(WeirCommand.USAGE, run.exit(), what);
        assertEquals(1, run.errorLines(), what);
        assertTrue(run.err().startsWith(start) && run.err().contains(detail), what);
        assertFalse(Files.exists(journal), "nothing ingested: " + what);
    }

    /** Trades of ABC and XYZ; ABC's trade at 500 ms comes last in [0, 10 s), out of order. */
    private Path trades() throws IOException
    {
        return csv("trades.csv",
            "event_id,event_time,instrument,price,qty",
            "1,1000,ABC,10.00,100",
            "2,2000,ABC,10.50,50",
            "3,3000,ABC,9.80,200",
            "4,4000,XYZ,20.00,5",
            "5,4000,XYZ,21.00,3",
            "6,500,ABC,10.20,10",
            "7,12000,ABC,11.00,0");
    }

    /** Card payments, approved or declined, in one minute. */
    private Path payments() throws IOException
    {
        return csv("payments.csv",
            "event_id,event_time,card,status,amount",
            "1,1000,c1,approved,600.00",
            "2,2000,c1,declined,50.00",
            "3,3000,c2,declined,10.00",
            "4,4000,c1,declined,70.00",
            "5,5000,c1,approved,500.00",
            "6,6000,c2,declined,20.00",
            "7,7000,c3,approved,2000.00",
            "8,8000,c1,declined,30.00",
            "9,9000,c2,declined,5.00",
            "10,10000,c1,approved,10.00");
    }

    private Path csv(final String name, final String... lines) throws IOException
    {
        return Files.write(dir.resolve(name), List.of(lines));
    }
}
