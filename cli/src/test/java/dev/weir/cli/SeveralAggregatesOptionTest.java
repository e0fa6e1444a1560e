package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --aggregate} with several aggregations, comma-separated or repeated, one of them over another
 * column ({@code distinct:merchant}): a column per aggregation in the results CSV and JSONL, named after it,
 * a mean at the value column's scale; a replay gives the run's rows; a bad name, an unknown column, a
 * repeated one and several with {@code --jdbc-url} are refused with exit 2.
 */
class SeveralAggregatesOptionTest
{
    @TempDir
    Path dir;

    @Test
    void aRunGivesAColumnPerAggregationAndAReplayTheSameRows() throws IOException
    {
        final Path input = payments();
        final Path journal = dir.resolve("journal");
        final Path results = dir.resolve("results.csv");
        final Cli run = Cli.run("run", "--input", input.toString(), "--journal", journal.toString(), "--columns",
            ColumnsIngestTest.PAYMENT_COLUMNS, "--key", "card", "--value", "amount", "--window", "tumbling:10s",
            "--aggregate", "average,distinct:merchant", "--aggregate", "distinct:fee", "--results", results.toString());
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("aggregates average, approx-distinct(64,merchant), approx-distinct(64,fee)"), run.out());
        final List<String> expected = List.of(
            "window_start,window_end,card,count,sum,min,max,version,average,distinct_merchant,distinct_fee",
            "0,10000,c1,4,26.00,-3.00,12.34,0,6.50,3,2",
            "0,10000,c2,2,0.50,0.25,0.25,0,0.25,1,1",
            "10000,20000,c1,1,1.00,1.00,1.00,0,1.00,1,1");
        assertEquals(expected, Files.readAllLines(results));

        final Path replayed = dir.resolve("replayed.csv");
        final Cli replay = Cli.run("replay", "--journal", journal.toString(), "--key", "card", "--value", "amount", "--window",
            "tumbling:10s", "--aggregate", "average", "--aggregate", "distinct:merchant,distinct:fee", "--results", replayed.toString());
        assertEquals(0, replay.exit(), replay.err());
        assertEquals(expected, Files.readAllLines(replayed), "a replay of the whole journal gives the run's rows");

        final Path out = dir.resolve("out");
        final Cli jsonl = Cli.run("replay", "--journal", journal.toString(), "--key", "card", "--value", "amount", "--window",
            "tumbling:10s", "--aggregate", "average,distinct:merchant,distinct:fee", "--output-dir", out.toString(), "--format", "jsonl");
        assertEquals(0, jsonl.exit(), jsonl.err());
        final List<String> objects = Files.readAllLines(out.resolve("date=1970-01-01").resolve("results.jsonl"));
        assertEquals("{\"window_start\":0,\"window_end\":10000,\"card\":\"c1\",\"count\":4,\"sum\":26.00,\"min\":-3.00,\"max\":12.34,"
            + "\"version\":0,\"average\":6.50,\"distinct_merchant\":3,\"distinct_fee\":2}", objects.get(0));

        final Cli other = Cli.run("run", "--journal", journal.toString(), "--key", "card", "--value", "amount", "--window",
            "tumbling:10s", "--aggregate", "distinct:merchant,average,distinct:fee", "--results", dir.resolve("other.csv").toString());
        assertEquals(WeirCommand.USAGE, other.exit(), "the aggregations and their order are part of the checkpointed configuration: "
            + other.err());
    }

    @Test
    void oneAggregationOverAColumnKeepsTheAggregateColumn() throws IOException
    {
        final Path results = dir.resolve("one.csv");
        final Cli run = Cli.run("run", "--input", payments().toString(), "--columns", ColumnsIngestTest.PAYMENT_COLUMNS, "--key", "card",
            "--value", "amount", "--window", "tumbling:10s", "--aggregate", "distinct:country", "--results", results.toString());
        assertEquals(0, run.exit(), run.err());
        assertEquals(List.of("window_start,window_end,card,count,sum,min,max,version,aggregate", "0,10000,c1,4,26.00,-3.00,12.34,0,2",
            "0,10000,c2,2,0.50,0.25,0.25,0,1", "10000,20000,c1,1,1.00,1.00,1.00,0,1"), Files.readAllLines(results));
    }

    @Test
    void aBadAggregationIsRefusedWithExitTwoAndNothingIsIngested() throws IOException
    {
        final Path input = payments();
        final Path journal = dir.resolve("refused");
        for (final String bad : new String[] {"average,median", "distinct:", "distinct:Merchant", "average,,distinct"})
        {
            final Cli refused = Cli.run("run", "--input", input.toString(), "--journal", journal.toString(), "--columns",
                ColumnsIngestTest.PAYMENT_COLUMNS, "--key", "card", "--value", "amount", "--window", "tumbling:10s", "--aggregate", bad,
                "--results", dir.resolve("x.csv").toString());
            assertEquals(WeirCommand.USAGE, refused.exit(), bad + ": " + refused.err());
            assertTrue(refused.err().contains("is not an aggregation: average, distinct or distinct:COLUMN"), refused.err());
        }
        final Cli unknown = Cli.run("run", "--input", input.toString(), "--journal", journal.toString(), "--columns",
            ColumnsIngestTest.PAYMENT_COLUMNS, "--key", "card", "--value", "amount", "--window", "tumbling:10s", "--aggregate",
            "average,distinct:shop", "--results", dir.resolve("x.csv").toString());
        assertEquals(WeirCommand.USAGE, unknown.exit(), unknown.err());
        assertTrue(unknown.err().contains("no column 'shop'") && unknown.err().contains(ColumnsIngestTest.PAYMENT_COLUMNS), unknown.err());
        assertFalse(Files.exists(journal), "refused before anything is ingested");

        final Cli twice = Cli.run("run", "--input", input.toString(), "--columns", ColumnsIngestTest.PAYMENT_COLUMNS, "--key", "card",
            "--value", "amount", "--window", "tumbling:10s", "--aggregate", "average,distinct:fee,average", "--results",
            dir.resolve("x.csv").toString());
        assertEquals(WeirCommand.USAGE, twice.exit(), twice.err());
        assertTrue(twice.err().contains("--aggregate names average twice"), twice.err());

        final Cli jdbc = Cli.run("run", "--input", input.toString(), "--journal", dir.resolve("pg").toString(), "--columns",
            ColumnsIngestTest.PAYMENT_COLUMNS, "--key", "card", "--value", "amount", "--window", "tumbling:10s", "--aggregate",
            "average,distinct:fee", "--jdbc-url", "jdbc:postgresql://localhost:1/none");
        assertEquals(WeirCommand.USAGE, jdbc.exit(), jdbc.err());
        assertTrue(jdbc.err().contains("--jdbc-url takes at most one --aggregate") && jdbc.err().contains("name several with --aggregates"),
            jdbc.err());
    }

    /** Six columns; card c1 sees merchants Acme, Shop, Acme, "Caf, Z" and fees 5, 0, 5, 0 in [0, 10 s). */
    private Path payments() throws IOException
    {
        final Path input = dir.resolve("payments.csv");
        Files.write(input, List.of(
            "event_id,event_time,card,merchant,country,amount,fee,channel",
            "1,1000,c1,Acme,CH,12.34,5,web",
            "2,2000,c2,Shop,DE,0.25,0,pos",
            "3,3000,c1,Shop,DE,4.66,0,web",
            "4,4000,c1,Acme,CH,12.00,5,app",
            "5,5000,c2,Shop,DE,0.25,0,pos",
            "6,6000,c1,\"Caf, Z\",CH,-3.00,0,web",
            "7,12000,c1,Acme,CH,1.00,5,web"));
        return input;
    }
}
