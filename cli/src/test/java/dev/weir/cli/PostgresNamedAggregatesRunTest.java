package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.weir.testsupport.TestDatabase;
import dev.weir.testsupport.TestTables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir run --aggregates --jdbc-url}: the results table of a candle pipeline has one column per named aggregate,
 * typed by its scale, NULL where a window has no value for it (a filter no event matched, a division by zero); it
 * holds the rows of the results CSV of the same run; a table of a pipeline of a value is refused, untouched; late
 * events have a NULL value.
 */
@Tag("slow")
class PostgresNamedAggregatesRunTest
{
    private static final String COLUMNS = "symbol:string,price:decimal(2),qty:long";
    private static final String CANDLE = "open=first(price),high=max(price),low=min(price),close=last(price),volume=sum(qty),"
        + "vwap=sum(price*qty)/sum(qty),trades=count(),big=sum(qty) filter (where qty > 100)";
    private static final String NAMES = "open, high, low, close, volume, vwap, trades, big";

    @TempDir
    Path dir;

    @RegisterExtension
    final TestTables tables = new TestTables("named_run_test");

    private Connection db;
    private String table;

    @BeforeEach
    void tables()
    {
        db = tables.db();
        table = tables.name();
    }

    @Test
    void aCandlePipelineHasATypedColumnPerAggregateAndNullWhereAWindowHasNoValue() throws Exception
    {
        final Path results = dir.resolve("candles.csv");
        run("run", "--input", trades().toString(), "--columns", COLUMNS, "--journal", dir.resolve("j").toString(), "--rejected", rejected(),
            "--key", "symbol", "--aggregates", CANDLE, "--window", "tumbling:1s", "--results", results.toString(), "--jdbc-url", TestDatabase.URL, "--jdbc-table", table);

        assertEquals(List.of("symbol,text,t", "window_start,bigint,t", "window_end,bigint,t", "open,numeric(38,2),f", "high,numeric(38,2),f",
                "low,numeric(38,2),f", "close,numeric(38,2),f", "volume,bigint,f", "vwap,numeric(38,6),f", "trades,bigint,f", "big,bigint,f",
                "version,integer,t", "source_offset,bigint,t"),
            TestDatabase.rows(db, "SELECT attname, format_type(atttypid, atttypmod), attnotnull FROM pg_attribute WHERE attrelid = to_regclass('"
                + table + "') AND attnum > 0 AND NOT attisdropped ORDER BY attnum"),
            "no count, sum, min, max or aggregate: one nullable column per aggregate, bigint at scale 0, numeric at its scale");
        final List<String> rows = rows(table);
        assertEquals(List.of(
            "ACME,1000,2000,10.00,10.50,9.80,10.50,350,9.957143,3,200,0", // open and close by event time, not by arrival
            "ACME,2000,3000,11.00,11.00,11.00,11.00,10,11.000000,1,null,0", // no qty over 100: big is NULL
            "BOLT,1000,2000,5.00,5.00,5.00,5.00,0,null,1,null,0"), // vwap divides by a volume of 0: NULL
            rows, "a candle per symbol and second");

        final List<String> csv = new ArrayList<>();
        for (final String line : Files.readAllLines(results).subList(1, 4))
        {
            final String[] f = line.split(",", -1); // window_start,window_end,symbol,NAME...,version
            final List<String> row = new ArrayList<>(List.of(f[2], f[0], f[1]));
            for (int i = 3; i < f.length; i++)
            {
                row.add(f[i].isEmpty() ? "null" : f[i]);
            }
            csv.add(String.join(",", row));
        }
        Collections.sort(csv);
        assertEquals(csv, rows, "the rows of the results CSV, an empty field a NULL");
    }

    @Test
    void aTableOfAPipelineOfAValueIsRefusedUntouched() throws Exception
    {
        final Path journal = dir.resolve("j");
        run("run", "--input", trades().toString(), "--columns", COLUMNS, "--journal", journal.toString(), "--rejected", rejected(), "--key",
            "symbol", "--value", "price",
            "--window", "tumbling:1s", "--jdbc-url", TestDatabase.URL, "--jdbc-table", table);
        final List<String> before = TestDatabase.rows(db, "SELECT symbol, window_start, count, sum FROM " + table + " ORDER BY 1, 2");

        final Cli candles = Cli.run("run", "--journal", journal.toString(), "--pipeline", "candles", "--key", "symbol", "--aggregates", CANDLE,
            "--window", "tumbling:1s", "--jdbc-url", TestDatabase.URL, "--jdbc-table", table);
        assertEquals(WeirCommand.USAGE, candles.exit(), candles.out() + candles.err());
        assertTrue(candles.err().startsWith("weir: ") && candles.err().strip().lines().count() == 1, candles.err());
        assertTrue(candles.err().contains("table " + table + " exists but does not match this pipeline's results (key symbol, aggregates "
            + "open,high,low,close,volume,vwap,trades,big)"), candles.err());
        assertTrue(candles.err().contains("Expected columns (symbol text, window_start bigint, window_end bigint, open numeric(38,2), "
            + "high numeric(38,2), low numeric(38,2), close numeric(38,2), volume bigint, vwap numeric(38,6), trades bigint, big bigint, "
            + "version integer, source_offset bigint)"), candles.err());
        assertEquals(before, TestDatabase.rows(db, "SELECT symbol, window_start, count, sum FROM " + table + " ORDER BY 1, 2"), "untouched");

        run("run", "--journal", journal.toString(), "--pipeline", "candles", "--key", "symbol", "--aggregates", CANDLE, "--window",
            "tumbling:1s", "--jdbc-url", TestDatabase.URL, "--jdbc-table", table + "_candles");
        assertEquals(3, rows(table + "_candles").size(), "into a table of its own");
    }

    @Test
    void lateEventsHaveANullValue() throws Exception
    {
        final Path input = write("late.csv", List.of("event_id,event_time,symbol,price,qty", "1,1000,ACME,10.00,100", "2,5000,ACME,10.50,50",
            "3,1200,ACME,9.80,200", "4,1300,BOLT,5.00,7"));
        final String late = table + "_late";
        run("run", "--input", input.toString(), "--columns", COLUMNS, "--journal", dir.resolve("j").toString(), "--rejected", rejected(),
            "--key", "symbol", "--aggregates", CANDLE, "--window", "tumbling:1s", "--late", "side", "--jdbc-url", TestDatabase.URL, "--jdbc-table", table,
            "--jdbc-late-table", late);

        assertEquals(List.of("ACME,null,3,1200", "BOLT,null,4,1300"),
            TestDatabase.rows(db, "SELECT symbol, value, event_id, event_time FROM " + late + " ORDER BY event_id"), "no value: NULL");
        assertEquals(List.of("value,bigint,f"), TestDatabase.rows(db, "SELECT attname, format_type(atttypid, atttypmod), attnotnull FROM pg_attribute "
            + "WHERE attrelid = to_regclass('" + late + "') AND attname = 'value'"));
    }

    /** Trades of two symbols in two seconds, one out of order: open and close go by event time. */
    private Path trades() throws Exception
    {
        return write("trades.csv", List.of("event_id,event_time,symbol,price,qty", "1,1000,ACME,10.00,100", "2,1500,ACME,10.50,50",
            "3,1200,ACME,9.80,200", "4,1100,BOLT,5.00,0", "5,2500,ACME,11.00,10"));
    }

    /** @return where a run writes its rejected lines (none here): the temporary directory, not the working one. */
    private String rejected()
    {
        return dir.resolve("rejected.csv").toString();
    }

    private List<String> rows(final String resultsTable) throws SQLException
    {
        final List<String> rows = TestDatabase.rows(db, "SELECT symbol, window_start, window_end, " + NAMES + ", version FROM " + resultsTable);
        Collections.sort(rows);
        return rows;
    }

    private Path write(final String name, final List<String> lines) throws Exception
    {
        return Files.write(dir.resolve(name), lines);
    }

    private static void run(final String... args)
    {
        final Cli cli = Cli.run(args);
        assertEquals(0, cli.exit(), cli.out() + cli.err());
    }
}
