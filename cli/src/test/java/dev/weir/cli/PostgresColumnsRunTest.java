package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import dev.weir.csv.CsvFields;
import dev.weir.journal.files.CsvText;
import dev.weir.testsupport.KillHarness;
import dev.weir.testsupport.TestDatabase;
import dev.weir.testsupport.TestTables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir run --jdbc-url} with columns: the results table has one column per key column, typed by it,
 * and a decimal value's sum, min and max as exact numerics; it holds, for every key and window, the row of
 * the highest version in the results CSV of the same run, text for text (quoted strings, decimals at their
 * scale), re-fired versions included; a table of another shape is refused with both shapes named, and left
 * as it was.
 */
@Tag("slow")
class PostgresColumnsRunTest
{
    private static final String COLUMNS = "card:string,merchant:string,country:string,amount:decimal(2),fee:long,channel:string";
    private static final String HEADER = "event_id,event_time,card,merchant,country,amount,fee,channel";
    private static final String[] MERCHANTS = {"m-1", "m-2", "\"Café \"\"Le Bon\"\", Paris\"", "m-4", "\"Shop, Inc.\""};
    private static final String[] COUNTRIES = {"FR", "DE", "IT"};

    @TempDir
    Path dir;

    @RegisterExtension
    final TestTables tables = new TestTables("columns_run_test");

    private Connection db;
    private String table;

    @BeforeEach
    void tables()
    {
        db = tables.db();
        table = tables.name();
    }

    @Test
    void aCompositeKeyWithADecimalValueGivesTheRowsOfTheResultsCsvWithTheirReFiredVersions() throws Exception
    {
        final Path input = payments(4_000, 14);
        final Path results = dir.resolve("results.csv");
        run("run", "--input", input.toString(), "--columns", COLUMNS, "--journal", dir.resolve("payments").toString(),
            "--key", "merchant,country", "--value", "amount", "--aggregate", "average", "--window", "tumbling:1s", "--out-of-orderness", "200ms",
            "--allowed-lateness", "3s", "--results", results.toString(), "--jdbc-url", TestDatabase.URL, "--jdbc-table", table);

        assertEquals(List.of("merchant,text", "country,text", "window_start,bigint", "window_end,bigint", "count,bigint", "sum,numeric(38,2)",
            "min,numeric(38,2)", "max,numeric(38,2)", "version,integer", "source_offset,bigint", "aggregate,numeric(38,2)"), columnTypes(table));
        assertEquals(List.of("merchant,country,window_start,window_end"), primaryKey(table));
        final List<String> csv = Files.readAllLines(results);
        assertEquals("window_start,window_end,merchant,country,count,sum,min,max,version,aggregate", csv.get(0));
        final List<String> expected = highestVersions(csv, 2);
        assertTrue(csv.size() - 1 > expected.size(), "late events re-fired windows: " + (csv.size() - 1) + " rows for " + expected.size() + " windows");
        assertTrue(expected.stream().anyMatch(r -> r.contains("\"Shop, Inc.\"")) && expected.stream().anyMatch(r -> r.contains("\"\"Le Bon\"\"")),
            "quoted merchants");
        final List<String> rows = tableAsCsv(table, "merchant,country", true);
        assertTrue(rows.stream().anyMatch(r -> !r.split(",")[r.split(",").length - 2].equals("0")), "versions above 0 in the table");
        assertEquals(expected, rows, "the table holds the highest version of every window of the results CSV, text for text");
    }

    @Test
    void aLongKeyColumnIsABigintColumnOfTheKey() throws Exception
    {
        final Path input = payments(2_000, 7);
        final Path results = dir.resolve("by-fee.csv");
        run("run", "--input", input.toString(), "--columns", COLUMNS, "--journal", dir.resolve("payments").toString(),
            "--key", "fee", "--value", "amount", "--window", "sliding:4s/2s", "--out-of-orderness", "300ms", "--allowed-lateness", "2s",
            "--results", results.toString(), "--jdbc-url", TestDatabase.URL, "--jdbc-table", table);

        assertEquals(List.of("fee,bigint", "window_start,bigint", "window_end,bigint", "count,bigint", "sum,numeric(38,2)", "min,numeric(38,2)",
            "max,numeric(38,2)", "version,integer", "source_offset,bigint", "aggregate,bigint"), columnTypes(table));
        assertEquals(List.of("fee,window_start,window_end"), primaryKey(table));
        assertEquals(highestVersions(Files.readAllLines(results), 1), tableAsCsv(table, "fee", false));
        assertEquals(List.of("t"), TestDatabase.rows(db, "SELECT bool_and(fee BETWEEN 0 AND 99) AND count(DISTINCT fee) > 50 FROM " + table),
            "fees as numbers");
    }

    @Test
    void aDecimalSumIsExact() throws Exception
    {
        final Path input = write("amounts.csv", List.of("event_id,event_time,card,amount",
            "1,1000,c1,0.10", "2,1100,c1,0.20", "3,1200,c2,92233720368547758.07", "4,1300,c3,-92233720368547758.08", "5,1400,c3,0.01",
            "6,1500,c4,12.34"));
        final Path results = dir.resolve("results.csv");
        run("run", "--input", input.toString(), "--columns", "card:string,amount:decimal(2)", "--journal", dir.resolve("j").toString(),
            "--key", "card", "--value", "amount", "--window", "tumbling:10s", "--results", results.toString(), "--jdbc-url", TestDatabase.URL,
            "--jdbc-table", table);

        assertEquals(List.of("c1,0.30,0.10,0.20", "c2,92233720368547758.07,92233720368547758.07,92233720368547758.07",
                "c3,-92233720368547758.07,-92233720368547758.08,0.01", "c4,12.34,12.34,12.34"),
            TestDatabase.rows(db, "SELECT card, sum, min, max FROM " + table + " ORDER BY card"), "sums, mins and maxes to the cent");
        assertEquals(List.of("t"), TestDatabase.rows(db, "SELECT bool_and(CASE card WHEN 'c1' THEN sum = 0.3 WHEN 'c4' THEN sum = 12.34 "
            + "ELSE true END) FROM " + table), "numbers, not text");
        assertEquals(highestVersions(Files.readAllLines(results), 1), tableAsCsv(table, "card", false));
    }

    @Test
    void aTableOfAnotherPipelinesShapeIsRefusedAndLeftAsItWas() throws Exception
    {
        final Path input = payments(1_000, 3);
        final Path journal = dir.resolve("payments");
        run("run", "--input", input.toString(), "--columns", COLUMNS, "--journal", journal.toString(), "--key", "merchant,country", "--value",
            "amount", "--window", "tumbling:1s", "--results", dir.resolve("place.csv").toString(), "--jdbc-url", TestDatabase.URL,
            "--jdbc-table", table);
        final List<String> delivered = tableAsCsv(table, "merchant,country", false);
        final List<String> columns = columnTypes(table);

        // another pipeline on the journal, keyed by card, into the same table
        final Cli byCard = Cli.run("run", "--journal", journal.toString(), "--pipeline", "by_card", "--key", "card", "--value", "amount",
            "--window", "tumbling:1s", "--results", dir.resolve("card.csv").toString(), "--jdbc-url", TestDatabase.URL, "--jdbc-table", table);
        assertEquals(WeirCommand.USAGE, byCard.exit(), byCard.out() + byCard.err());
        assertTrue(byCard.err().contains("table " + table + " exists but does not match this pipeline's results (key card, value decimal(2))"),
            byCard.err());
        assertTrue(byCard.err().contains("column card text is missing"), byCard.err());
        assertTrue(byCard.err().contains("Expected columns (card text, window_start bigint, window_end bigint, count bigint, sum numeric(38,2)"),
            byCard.err());
        assertTrue(byCard.err().contains("unique on (card, window_start, window_end)"), byCard.err());
        assertTrue(byCard.err().contains("found columns (merchant text, country text, window_start bigint"), byCard.err());
        assertTrue(byCard.err().contains("--jdbc-table"), byCard.err());
        assertEquals(columns, columnTypes(table), "not altered");
        assertEquals(delivered, tableAsCsv(table, "merchant,country", false), "rows untouched");

        // a pipeline of the same shape, but another pipeline: a table takes one pipeline's results
        final Cli sameShape = Cli.run("run", "--journal", journal.toString(), "--pipeline", "by_place_5s", "--key", "merchant,country", "--value",
            "amount", "--window", "tumbling:5s", "--results", dir.resolve("place5.csv").toString(), "--jdbc-url", TestDatabase.URL,
            "--jdbc-table", table);
        assertEquals(WeirCommand.USAGE, sameShape.exit(), sameShape.out() + sameShape.err());
        assertTrue(sameShape.err().contains("a results table is fed by one journal") && sameShape.err().contains("pipelines/by_place_5s"),
            sameShape.err());
        assertEquals(delivered, tableAsCsv(table, "merchant,country", false), "rows untouched");

        // the default columns' table refuses the composite key, and the composite key's the default columns
        final Path four = write("four.csv", List.of("event_id,event_time,key,value", "1,1000,a,5", "2,2000,b,7"));
        run("run", "--input", four.toString(), "--journal", dir.resolve("four").toString(), "--rejected", dir.resolve("r1.csv").toString(),
            "--window", "tumbling:1s", "--jdbc-url",
            TestDatabase.URL, "--jdbc-table", table + "_default");
        final Cli intoDefault = Cli.run("run", "--journal", journal.toString(), "--pipeline", "by_place", "--key", "merchant,country", "--value",
            "amount", "--window", "tumbling:1s", "--jdbc-url", TestDatabase.URL, "--jdbc-table", table + "_default");
        assertEquals(WeirCommand.USAGE, intoDefault.exit(), intoDefault.err());
        assertTrue(intoDefault.err().contains("found columns (key text, window_start bigint, window_end bigint, count bigint, sum bigint"),
            intoDefault.err());
        final Cli defaultIntoPlace = Cli.run("run", "--input", four.toString(), "--journal", dir.resolve("four2").toString(), "--rejected",
            dir.resolve("r2.csv").toString(), "--window",
            "tumbling:1s", "--jdbc-url", TestDatabase.URL, "--jdbc-table", table);
        assertEquals(WeirCommand.USAGE, defaultIntoPlace.exit(), defaultIntoPlace.err());
        assertTrue(defaultIntoPlace.err().contains("(key key, value long)") && defaultIntoPlace.err().contains("column key text is missing"),
            defaultIntoPlace.err());
        assertEquals(List.of("a,1000,2000,1,5,5,5,0", "b,2000,3000,1,7,7,7,0"), TestDatabase.rows(db,
            "SELECT key, window_start, window_end, count, sum, min, max, version FROM " + table + "_default ORDER BY key"), "untouched");

        // with its own table, the pipeline keyed by card delivers
        run("run", "--journal", journal.toString(), "--pipeline", "by_card", "--key", "card", "--value", "amount", "--window", "tumbling:1s",
            "--results", dir.resolve("card.csv").toString(), "--jdbc-url", TestDatabase.URL, "--jdbc-table", table + "_card");
        assertEquals(highestVersions(Files.readAllLines(dir.resolve("card.csv")), 1), tableAsCsv(table + "_card", "card", false));
    }

    @Test
    void aFollowingRunDeliversACompositeKeyWhileAnotherProcessIngests() throws Exception
    {
        final Path journal = dir.resolve("payments");
        run("ingest", "--input", payments(3_000, 21).toString(), "--columns", COLUMNS, "--journal", journal.toString());
        final Path log = dir.resolve("child.log");
        final Process child = KillHarness.startChild(new String[] {"run", "--journal", journal.toString(), "--pipeline", "by_place", "--key",
            "merchant,country", "--value", "amount", "--window", "tumbling:1s", "--allowed-lateness", "3s", "--follow", "--jdbc-url",
            TestDatabase.URL, "--jdbc-table", table}, log);
        try
        {
            awaitRows(child, 1, log);
            final List<String> later = new ArrayList<>(List.of(HEADER));
            final List<String> more = Files.readAllLines(payments(6_000, 22));
            for (final String line : more.subList(3_001, more.size()))
            {
                later.add(line); // events 3,001 to 6,000: later times, new keys for tuples already seen and some first seen now
            }
            run("ingest", "--input", write("later.csv", later).toString(), "--journal", journal.toString());
            final List<String> before = TestDatabase.rows(db, "SELECT max(window_end) FROM " + table);
            final long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(2);
            while (before.equals(TestDatabase.rows(db, "SELECT max(window_end) FROM " + table)) && System.nanoTime() < deadline)
            {
                assertTrue(child.isAlive(), Files.readString(log));
                Thread.sleep(50);
            }
            assertTrue(!before.equals(TestDatabase.rows(db, "SELECT max(window_end) FROM " + table)), "the later events reached the table while following; the child's output:\n" + Files.readString(log));
            assertTrue(child.isAlive(), "still following");
        }
        finally
        {
            child.destroy(); // SIGTERM: stop, checkpoint, deliver what is left
            assertTrue(child.waitFor(2, java.util.concurrent.TimeUnit.MINUTES), "stopped");
        }
        assertEquals(143, child.exitValue(), Files.readString(log));
        final dev.weir.journal.JournalDirectory directory = dev.weir.journal.JournalDirectory.open(journal).pipeline("by_place");
        final List<String> rows = TestDatabase.rows(db, "SELECT merchant, country, window_start, window_end, count, sum, min, max, version FROM "
            + table);
        Collections.sort(rows);
        assertEquals(dev.weir.postgres.OutputRows.highestVersions(directory, dev.weir.postgres.ResultsTableShape.of(
            dev.weir.journal.schema.JournalSchema.parse(COLUMNS), new int[] {1, 2}, 3, 0)), rows, "every window fired while following, of its highest version");
        assertTrue(rows.size() > 300, "rows: " + rows.size());
    }

    private void awaitRows(final Process child, final long atLeast, final Path log) throws Exception
    {
        final long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(2);
        while (System.nanoTime() < deadline)
        {
            assertTrue(child.isAlive(), "the child exited early:\n" + Files.readString(log));
            if ("t".equals(TestDatabase.rows(db, "SELECT to_regclass('" + table + "') IS NOT NULL").get(0))
                && Long.parseLong(TestDatabase.rows(db, "SELECT count(*) FROM " + table).get(0)) >= atLeast)
            {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no rows in " + table + " while following:\n" + Files.readString(log));
    }

    /**
     * A six-column payments CSV with quoted merchants (commas, quotes, UTF-8), decimal amounts, and 1 event
     * in 40 late by 1 to 2.5 s, which re-fires its window under allowed lateness.
     */
    private Path payments(final int events, final long seed) throws IOException
    {
        final List<String> lines = new ArrayList<>(List.of(HEADER));
        final SplittableRandom random = new SplittableRandom(seed);
        for (int i = 1; i <= events; i++)
        {
            final long late = random.nextInt(40) == 0 ? 1_000 + random.nextInt(1_500) : random.nextInt(150);
            final long time = Math.max(0, 10_000L + i * 5L - late);
            final String amount = BigDecimal.valueOf(random.nextLong(-5_000, 500_000), 2).toPlainString();
            lines.add(i + "," + time + ",card-" + random.nextInt(25) + "," + MERCHANTS[random.nextInt(MERCHANTS.length)] + ","
                + COUNTRIES[random.nextInt(COUNTRIES.length)] + "," + amount + "," + random.nextInt(100) + "," + (i % 3 == 0 ? "pos" : "online"));
        }
        return write("payments.csv", lines);
    }

    /**
     * @param csv   a results CSV, header first, every firing of every window.
     * @param arity the number of key columns.
     * @return the row of the highest version of each key and window, as it was written, sorted.
     */
    private static List<String> highestVersions(final List<String> csv, final int arity)
    {
        final CsvFields fields = new CsvFields();
        final Map<String, String> rows = new HashMap<>();
        final Map<String, Integer> versions = new HashMap<>();
        for (final String row : csv.subList(1, csv.size()))
        {
            assertEquals(null, fields.split(row, null), row);
            final StringBuilder window = new StringBuilder();
            for (int i = 0; i < 2 + arity; i++)
            {
                window.append(fields.text(i)).append('\u0000');
            }
            final int version = Integer.parseInt(fields.text(2 + arity + 4));
            if (versions.getOrDefault(window.toString(), -1) < version)
            {
                versions.put(window.toString(), version);
                rows.put(window.toString(), row);
            }
        }
        final List<String> sorted = new ArrayList<>(rows.values());
        Collections.sort(sorted);
        return sorted;
    }

    /**
     * @param resultsTable  a results table.
     * @param keys          its key columns.
     * @param withAggregate whether to add the aggregate column.
     * @return its rows as results CSV rows (strings quoted as RFC 4180, numbers as PostgreSQL prints them), sorted.
     */
    private List<String> tableAsCsv(final String resultsTable, final String keys, final boolean withAggregate) throws SQLException
    {
        final List<String> types = columnTypes(resultsTable);
        final String[] keyNames = keys.split(",");
        final String query = "SELECT window_start, window_end, " + keys + ", count, sum, min, max, version" + (withAggregate ? ", aggregate" : "")
            + " FROM " + resultsTable;
        final List<String> rows = new ArrayList<>();
        try (java.sql.Statement statement = db.createStatement(); java.sql.ResultSet result = statement.executeQuery(query))
        {
            final int columns = result.getMetaData().getColumnCount();
            while (result.next())
            {
                final StringBuilder row = new StringBuilder();
                for (int c = 1; c <= columns; c++)
                {
                    final String text = result.getString(c);
                    final boolean quoted = c > 2 && c <= 2 + keyNames.length && types.contains(keyNames[c - 3] + ",text");
                    row.append(c > 1 ? "," : "").append(quoted ? CsvText.quote(text) : text); // strings quoted as RFC 4180, as the CSV is
                }
                rows.add(row.toString());
            }
        }
        Collections.sort(rows);
        return rows;
    }

    private List<String> columnTypes(final String resultsTable) throws SQLException
    {
        return TestDatabase.rows(db, "SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = to_regclass('"
            + resultsTable + "') AND attnum > 0 AND NOT attisdropped ORDER BY attnum");
    }

    private List<String> primaryKey(final String resultsTable) throws SQLException
    {
        return TestDatabase.rows(db, "SELECT string_agg(a.attname, ',' ORDER BY array_position(i.indkey::int2[], a.attnum)) FROM pg_index i "
            + "JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) WHERE i.indrelid = to_regclass('" + resultsTable
            + "') AND i.indisprimary GROUP BY i.indexrelid");
    }

    private void run(final String... args)
    {
        final Cli cli = Cli.run(args);
        assertEquals(0, cli.exit(), String.join(" ", args) + "\n" + cli.out() + cli.err());
    }

    private Path write(final String name, final List<String> lines) throws IOException
    {
        final Path file = dir.resolve(name);
        Files.write(file, lines);
        return file;
    }
}
