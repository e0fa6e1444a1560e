package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.weir.csv.CsvLineParser;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputJournal;
import dev.weir.postgres.OutputRows;
import dev.weir.testsupport.KillHarness;
import dev.weir.testsupport.TestDatabase;
import dev.weir.testsupport.TestTables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir run --jdbc-url} run again and again: while following, rows reach PostgreSQL while the child
 * JVM is still running, events appended meanwhile by another process reach it too, and after SIGTERM the
 * table holds the highest version of every window in the output journal, with the offsets row at its last
 * output; a refused delivery is reported at once without stopping the run or its export; and rerunning a
 * bounded run, or resending every event, leaves the table as it was.
 */
@Tag("slow")
class PostgresRunTest
{
    @TempDir
    Path dir;

    @RegisterExtension
    final TestTables tables = new TestTables("run_test");

    private Connection db;
    private String table;

    @BeforeEach
    void tables()
    {
        db = tables.db();
        table = tables.name();
    }

    @Test
    void resultsReachPostgresWhileTheRunFollows() throws Exception
    {
        final Path journal = dir.resolve("journal");
        append(journal, 0, 20_000);
        final Path log = dir.resolve("child.log");
        final Process child = KillHarness.startChild(new String[] {"run", "--journal", journal.toString(), "--window", "tumbling:1s",
            "--follow", "--jdbc-url", TestDatabase.URL, "--jdbc-table", table}, log);
        try
        {
            final long firstRows = awaitRows(child, 1, log);
            append(journal, 20_000, 40_000); // another process appends while the child follows
            awaitRows(child, firstRows + 1, log);
            assertTrue(child.isAlive(), "still following");
        }
        finally
        {
            child.destroy(); // SIGTERM: stop, checkpoint, deliver what is left
            assertTrue(child.waitFor(2, TimeUnit.MINUTES), "stopped");
        }
        assertEquals(143, child.exitValue(), Files.readString(log));

        final JournalDirectory directory = JournalDirectory.open(journal);
        final List<String> rows = TestDatabase.rows(db, "SELECT key, window_start, window_end, count, sum, min, max, version FROM " + table);
        Collections.sort(rows);
        assertEquals(OutputRows.highestVersions(directory), rows, "every window fired while following, once, of its highest version");
        try (OutputJournal output = OutputJournal.open(directory))
        {
            assertEquals(List.of(String.valueOf(output.lastPosition())), TestDatabase.rows(db,
                "SELECT output_position FROM weir_offsets WHERE journal_id = '" + directory.id() + "' AND results_table = '" + table + "'"));
        }
        assertTrue(Files.readString(log).contains("PostgreSQL"), Files.readString(log));
    }

    @Test
    void aRefusedDeliveryIsReportedAtOnceAndTheRunGoesOnAndStillExports() throws Exception
    {
        final Path other = dir.resolve("other");
        append(other, 0, 5_000);
        final Cli claim = Cli.run("run", "--journal", other.toString(), "--window", "tumbling:1s", "--jdbc-url", TestDatabase.URL,
            "--jdbc-table", table);
        assertEquals(0, claim.exit(), claim.err());

        final Path journal = dir.resolve("journal");
        append(journal, 0, 20_000);
        final Path log = dir.resolve("child.log");
        final Path results = dir.resolve("results.csv");
        final Process child = KillHarness.startChild(new String[] {"run", "--journal", journal.toString(), "--window", "tumbling:1s",
            "--follow", "--results", results.toString(), "--jdbc-url", TestDatabase.URL, "--jdbc-table", table}, log);
        try
        {
            final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (!Files.readString(log).contains("a results table is fed by one journal") && System.nanoTime() < deadline)
            {
                assertTrue(child.isAlive(), Files.readString(log));
                Thread.sleep(50);
            }
            assertTrue(Files.readString(log).contains("delivery to PostgreSQL stopped; the run goes on"), Files.readString(log));
            Thread.sleep(300);
            assertTrue(child.isAlive(), "still following:\n" + Files.readString(log));
        }
        finally
        {
            child.destroy();
            assertTrue(child.waitFor(2, TimeUnit.MINUTES), "stopped");
        }
        assertTrue(Files.readAllLines(results).size() > 10, "the results file was exported before the failure was reported:\n"
            + Files.readString(log));
        TestDatabase.deleteOffsets(db, "journal_id = '" + JournalDirectory.open(other).id() + "'");
    }

    @Test
    void rerunningTheRunOrResendingItsEventsChangesNothing() throws Exception
    {
        final Path input = dir.resolve("events.csv");
        KillHarness.writeEvents(input, 50_000, 100, 5);
        final Path journal = dir.resolve("journal");
        final String[] run = {"run", "--input", input.toString(), "--journal", journal.toString(), "--window", "tumbling:2s",
            "--allowed-lateness", "3s", "--dedupe", "--rejected", dir.resolve("rejected.csv").toString(), "--jdbc-url", TestDatabase.URL,
            "--jdbc-table", table};
        final Cli first = Cli.run(run);
        assertEquals(0, first.exit(), first.err());
        final List<String> delivered = sortedTable();
        assertTrue(delivered.size() > 1_000, "rows: " + delivered.size());

        final Cli again = Cli.run(run); // the same command: nothing new to ingest, process or deliver
        assertEquals(0, again.exit(), again.err());
        assertTrue(again.out().contains("0 results upserted"), again.out());

        final Path resent = dir.resolve("resent.csv"); // a producer resends every event, under another file name
        Files.copy(input, resent);
        run[2] = resent.toString();
        final String[] afterEnd = java.util.Arrays.copyOf(run, run.length + 1);
        afterEnd[run.length] = ResumeAfterEnd.FLAG; // the first run ended its input: resume after it, as asked
        final Cli duplicates = Cli.run(afterEnd);
        assertEquals(0, duplicates.exit(), duplicates.err());
        assertTrue(duplicates.out().lines().anyMatch(l -> l.matches("duplicates +[0-9,]+ ignored")), duplicates.out());
        assertEquals(delivered, sortedTable(), "the table after a rerun and after every event was sent twice");
    }

    @Test
    void weirCheckReadsTheResultsTable() throws Exception
    {
        final Path input = dir.resolve("events.csv");
        final List<String> lines = new java.util.ArrayList<>(List.of(CsvLineParser.DEFAULT_HEADER));
        final long start = 1_764_460_800_000L; // 2025-11-30T00:00:00Z
        for (int i = 0; i < 3_000; i++)
        {
            lines.add(i + "," + (start + i * 86_400L) + ",k" + i % 7 + "," + i); // about 3 days
        }
        Files.write(input, lines);
        final Path journal = dir.resolve("journal");
        final Cli run = Cli.run("run", "--input", input.toString(), "--journal", journal.toString(), "--window", "tumbling:1h",
            "--aggregate", "average", "--rejected", dir.resolve("rejected.csv").toString(), "--jdbc-url", TestDatabase.URL, "--jdbc-table", table);
        assertEquals(0, run.exit(), run.err());
        assertEquals(List.of("0"), TestDatabase.rows(db, "SELECT count(*) FROM " + table + " WHERE aggregate IS DISTINCT FROM floor(sum::numeric / count)"),
            "--aggregate average reaches the aggregate column");

        final Cli passed = Cli.run("check", "--journal", journal.toString(), "--jdbc-url", TestDatabase.URL, "--jdbc-table", table);
        assertEquals(0, passed.exit(), passed.out() + passed.err());
        assertTrue(passed.out().contains("2025-12-01") && passed.out().contains("All checks passed."), passed.out());

        TestDatabase.execute(db, "DELETE FROM " + table + " WHERE window_start >= 1764547200000 AND window_start < 1764633600000");
        final Cli gap = Cli.run("check", "--jdbc-url", TestDatabase.URL, "--jdbc-table", table);
        assertEquals(CheckCommand.FAILED, gap.exit(), gap.out());
        assertTrue(gap.out().lines().anyMatch(l -> l.startsWith("gaps ") && l.contains("FAIL") && l.contains("no rows for 2025-12-01")), gap.out());

        assertEquals(WeirCommand.USAGE, Cli.run("check", "--jdbc-url", TestDatabase.URL, "--jdbc-table", "no_such_table").exit());
        assertEquals(WeirCommand.USAGE, Cli.run("check", "--jdbc-url", TestDatabase.URL, "--output-dir", dir.toString()).exit());
    }

    private List<String> sortedTable() throws SQLException
    {
        final List<String> rows = TestDatabase.rows(db, "SELECT key, window_start, window_end, count, sum, min, max, version FROM " + table);
        Collections.sort(rows);
        return rows;
    }

    /** Events i in [from, to): 10 keys, 1 ms apart, so 1 s windows fire as the watermark moves. */
    private static void append(final Path journal, final int from, final int to)
    {
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            for (int i = from; i < to; i++)
            {
                writer.append(i, i, "k" + i % 10, i);
            }
        }
    }

    private long awaitRows(final Process child, final long atLeast, final Path log) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (System.nanoTime() < deadline)
        {
            assertTrue(child.isAlive(), "the child exited early:\n" + Files.readString(log));
            final long rows = tableRows();
            if (rows >= atLeast)
            {
                return rows;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("fewer than " + atLeast + " rows in " + table + " while following:\n" + Files.readString(log));
    }

    private long tableRows() throws SQLException
    {
        final List<String> exists = TestDatabase.rows(db, "SELECT to_regclass('" + table + "') IS NOT NULL");
        return "t".equals(exists.get(0)) ? Long.parseLong(TestDatabase.rows(db, "SELECT count(*) FROM " + table).get(0)) : 0;
    }

    @Test
    void withUpdatesAndAnEarlyConditionTheTableHoldsTheFinalRowsAndTheEarlyFlag() throws Exception
    {
        final Path input = dir.resolve("events.csv");
        final List<String> lines = new java.util.ArrayList<>(List.of(CsvLineParser.DEFAULT_HEADER));
        final long start = 1_764_460_800_000L;
        for (int i = 0; i < 3_000; i++)
        {
            lines.add(i + "," + (start + i * 1_000L) + ",k" + i % 7 + "," + i % 100);
        }
        Files.write(input, lines);
        final Path results = dir.resolve("results.csv");
        final Cli run = Cli.run("run", "--input", input.toString(), "--journal", dir.resolve("journal").toString(), "--window", "tumbling:1m",
            "--emit", "updates", "--early-when", "sum>=450", "--results", results.toString(), "--jdbc-url", TestDatabase.URL, "--jdbc-table", table);
        assertEquals(0, run.exit(), run.err());
        final List<String> csv = Files.readAllLines(results);
        final long finals = csv.stream().filter(r -> r.endsWith(",final")).count();
        final long early = csv.stream().filter(r -> r.endsWith(",early")).count();
        assertTrue(early > 10 && early < finals, "some windows alerted early: " + early + " of " + finals);
        assertEquals(List.of(finals + "," + early + ",0"), TestDatabase.rows(db,
            "SELECT count(*), count(*) FILTER (WHERE early), count(*) FILTER (WHERE version < 0) FROM " + table),
            "a row per window, final (no update rows, no early row left over), flagged early where it alerted");
        assertEquals(List.of("0"), TestDatabase.rows(db, "SELECT count(*) FROM " + table + " WHERE early AND sum < 450"),
            "an early window's sum reached the condition");
    }

    /** Issue 28's example: the session grew after its early row fired, and the table holds one row for it, flagged early. */
    @Test
    void aSessionThatGrewAfterItsEarlyRowIsOneRowFlaggedEarly() throws Exception
    {
        final Path input = dir.resolve("e.csv");
        Files.writeString(input, "event_id,event_time,key,value\n1,0,a,10\n2,1000,a,10\n3,2000,a,10\n4,100000,b,1\n");
        final Path journal = dir.resolve("j");
        final Cli run = Cli.run("run", "--input", input.toString(), "--journal", journal.toString(), "--window", "session:30s",
            "--early-when", "count>=2", "--rejected", dir.resolve("rejected.csv").toString(), "--jdbc-url", TestDatabase.URL,
            "--jdbc-table", table, "--jdbc-batch", "1");
        assertEquals(0, run.exit(), run.err());
        final List<String> rows = TestDatabase.rows(db, "SELECT key, window_start, window_end, count, sum, min, max, version, early FROM " + table);
        Collections.sort(rows);
        assertEquals(List.of("a,0,32000,3,30,10,10,0,t", "b,100000,130000,1,1,1,1,0,f"), rows,
            "one row per session, flagged early; the early row of the shorter session is gone");
        assertEquals(OutputRows.finalWindows(JournalDirectory.open(journal), dev.weir.postgres.ResultsTableShape.DEFAULT.withEarly()), rows,
            "the output journal's final windows");
        assertTrue(run.out().contains("rows deleted, superseded by sessions that grew: 1)"), "the early row, committed alone, was deleted: "
            + run.out());
    }
}
