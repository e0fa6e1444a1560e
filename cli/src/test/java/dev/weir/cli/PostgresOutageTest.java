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

import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputJournal;
import dev.weir.postgres.OutputRows;
import dev.weir.postgres.PostgresSink;
import dev.weir.testsupport.KillHarness;
import dev.weir.testsupport.TcpForwarder;
import dev.weir.testsupport.TestDatabase;
import dev.weir.testsupport.TestTables;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database that is down or hangs delays the table, never the engine, and never holds a stop: real
 * faults in front of the real server (a {@link TcpForwarder} that is cut, restored or blackholed; a
 * table locked by another session), never the shared server itself. A bounded run with the database down
 * ingests, processes and exports, then reports the results not delivered and exits with
 * {@link WeirCommand#DELIVERY_PENDING}; the next run delivers them. A following run started while the
 * database is down retries with backoff and catches up when it returns. A following run whose delivery
 * hangs (a lock, a silent network) ends within seconds of SIGTERM, reporting what it did not deliver.
 */
@Tag("slow")
class PostgresOutageTest
{
    /**
     * Generous for a loaded CI machine (the child checkpoints and exports as it stops); the database's own timeouts
     * before the fix held a stop for 5 minutes.
     */
    private static final long STOP_BOUND_MS = 120_000;

    @TempDir
    Path dir;

    @RegisterExtension
    final TestTables tables = new TestTables("outage_test");

    private Connection db;
    private String table;
    private TcpForwarder forwarder;

    @BeforeEach
    void setUp() throws Exception
    {
        db = tables.db();
        table = tables.name();
        forwarder = TcpForwarder.toTestDatabase();
    }

    @AfterEach
    void tearDown() throws Exception
    {
        forwarder.close();
    }

    @Test
    void aBoundedRunWithTheDatabaseDownIngestsProcessesExportsAndReportsWhatIsPending() throws Exception
    {
        final Path input = dir.resolve("events.csv");
        KillHarness.writeEvents(input, 20_000, 50, 3);
        final Path journal = dir.resolve("journal");
        final Path out = dir.resolve("out");
        forwarder.cut(); // down before the run starts: nothing listens on its port
        final String[] run = {"run", "--input", input.toString(), "--journal", journal.toString(), "--window", "tumbling:1s",
            "--output-dir", out.toString(), "--jdbc-url", forwarder.url(), "--jdbc-table", table};

        final Cli down = Cli.run(run);
        assertEquals(WeirCommand.DELIVERY_PENDING, down.exit(), down.out() + down.err());
        assertEquals(20_000, KillHarness.ingestedLines(journal), "everything was ingested");
        final JournalDirectory directory = JournalDirectory.open(journal);
        final long results = results(directory);
        assertTrue(results > 500, "results: " + results);
        assertTrue(Files.readAllLines(out.resolve("date=1970-01-01").resolve("results.csv")).size() > 500, "the partition was exported");
        assertTrue(down.err().contains(String.format("up to %,d results are not delivered", results)), down.err());
        assertTrue(down.out().contains("\nwindows fired "), "the summary is printed: " + down.out());

        forwarder.restore();
        final Cli back = Cli.run(run);
        assertEquals(0, back.exit(), back.err());
        assertTrue(back.out().contains(String.format("%,d results upserted", results)), back.out());
        assertEquals(OutputRows.highestVersions(directory), sortedRows(table), "the next run delivered every result");
    }

    @Test
    void aLoginTheServerRefusesIsAUsageErrorBeforeAnythingIsIngested() throws Exception
    {
        final Path input = dir.resolve("events.csv");
        KillHarness.writeEvents(input, 1_000, 5, 4);
        final Path journal = dir.resolve("journal");
        final String wrongUser = TestDatabase.url("user=weir_no_such_role");
        final Cli refused = Cli.run("run", "--input", input.toString(), "--journal", journal.toString(), "--window", "tumbling:1s",
            "--jdbc-url", wrongUser, "--jdbc-table", table);
        assertEquals(WeirCommand.USAGE, refused.exit(), refused.err());
        assertTrue(refused.err().contains("cannot use PostgreSQL") && refused.err().contains("weir_no_such_role"), refused.err());
        assertEquals(0, KillHarness.ingestedLines(journal), "refused before anything was ingested");
    }

    @Test
    void aFollowingRunStartedWhileTheDatabaseIsDownCatchesUpWhenItReturns() throws Exception
    {
        final Path journal = dir.resolve("journal");
        append(journal, 0, 20_000);
        forwarder.cut();
        final Path log = dir.resolve("child.log");
        final Process child = KillHarness.startChild(new String[] {"run", "--journal", journal.toString(), "--window", "tumbling:1s",
            "--follow", "--jdbc-url", forwarder.url(), "--jdbc-table", table}, log);
        try
        {
            awaitLog(child, log, "retrying in");
            append(journal, 20_000, 30_000); // the engine goes on while the database is down
            Thread.sleep(2_000);
            assertTrue(child.isAlive(), Files.readString(log));
            assertEquals(0, tableRows(table), "nothing reached the table while it was down");
            awaitLog(child, log, "retrying in 2000 ms"); // backoff: 1 s, then twice as long each time

            forwarder.restore(); // back: the next retry (at most 30 s away) delivers everything so far
            final long caughtUp = awaitRows(child, log, 1);

            forwarder.cut(); // down again while following, with connections open
            append(journal, 30_000, 40_000);
            Thread.sleep(3_000);
            forwarder.restore();
            awaitRows(child, log, caughtUp + 1);
        }
        finally
        {
            child.destroy();
            assertTrue(child.waitFor(2, TimeUnit.MINUTES), "stopped");
        }
        assertEquals(143, child.exitValue(), Files.readString(log));

        // the table equals an uninterrupted delivery of the same output journal, into another table
        final JournalDirectory directory = JournalDirectory.open(journal);
        try (PostgresSink reference = PostgresSink.connect(TestDatabase.URL, table + "_reference", 500))
        {
            reference.deliver(directory);
        }
        final List<String> delivered = sortedRows(table);
        assertEquals(sortedRows(table + "_reference"), delivered, "the same rows as an uninterrupted delivery");
        assertEquals(OutputRows.highestVersions(directory), delivered, "every window of the output journal, of its highest version");
        try (OutputJournal output = OutputJournal.open(directory))
        {
            assertEquals(List.of(String.valueOf(output.lastPosition())), TestDatabase.rows(db,
                "SELECT output_position FROM weir_offsets WHERE journal_id = '" + directory.id() + "' AND results_table = '" + table + "'"));
        }
    }

    @Test
    void aStopWhileTheDeliveryWaitsForALockEndsWithinSeconds() throws Exception
    {
        stopWhileTheDatabaseHangs(false);
    }

    @Test
    void aStopWhileTheNetworkIsSilentEndsWithinSeconds() throws Exception
    {
        stopWhileTheDatabaseHangs(true);
    }

    private void stopWhileTheDatabaseHangs(final boolean blackhole) throws Exception
    {
        final Path journal = dir.resolve("journal");
        append(journal, 0, 20_000);
        final Path log = dir.resolve("child.log");
        final Process child = KillHarness.startChild(new String[] {"run", "--journal", journal.toString(), "--window", "tumbling:1s",
            "--follow", "--jdbc-url", forwarder.url(), "--jdbc-table", table}, log);
        final long stopMs;
        try (Connection locker = TestDatabase.connect())
        {
            awaitRows(child, log, 1);
            locker.setAutoCommit(false);
            final long heldBefore = forwarder.heldReads();
            if (blackhole)
            {
                forwarder.blackhole(); // connections stay open, nothing passes
            }
            else
            {
                TestDatabase.execute(locker, "LOCK TABLE " + table + " IN ACCESS EXCLUSIVE MODE");
            }
            append(journal, 20_000, 40_000); // new results the delivery will try to upsert
            if (blackhole)
            {
                awaitHeldRead(child, log, heldBefore); // the delivery now waits on the silent network
            }
            else
            {
                awaitLockWait(child, log);
            }
            final long signalled = System.nanoTime();
            child.destroy(); // SIGTERM
            final boolean ended = child.waitFor(STOP_BOUND_MS, TimeUnit.MILLISECONDS);
            stopMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - signalled);
            if (!ended)
            {
                child.destroyForcibly().waitFor();
            }
            assertTrue(ended, "the stop waited for the database for more than " + STOP_BOUND_MS + " ms:\n" + Files.readString(log));
            locker.rollback();
        }
        System.out.println("stopped " + stopMs + " ms after SIGTERM while the database hung (" + (blackhole ? "silent network" : "lock") + ")");
        final String output = Files.readString(log);
        assertTrue(output.contains("results are not delivered"), "what is pending is reported:\n" + output);

        forwarder.restore();
        final Cli next = Cli.run("run", "--journal", journal.toString(), "--window", "tumbling:1s", "--jdbc-url", TestDatabase.URL,
            "--jdbc-table", table);
        assertEquals(0, next.exit(), next.err());
        assertEquals(OutputRows.highestVersions(JournalDirectory.open(journal)), sortedRows(table), "the next run delivered the rest");
    }

    /** Wait until the delivery sent something the silent network holds (the new results' upsert), however busy the machine. */
    private void awaitHeldRead(final Process child, final Path log, final long before) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (forwarder.heldReads() == before)
        {
            assertTrue(child.isAlive(), Files.readString(log));
            assertTrue(System.nanoTime() < deadline, "the delivery sent nothing into the silent network:\n" + Files.readString(log));
            Thread.sleep(50);
        }
    }

    private void awaitLockWait(final Process child, final Path log) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (System.nanoTime() < deadline)
        {
            assertTrue(child.isAlive(), Files.readString(log));
            final List<String> waiting = TestDatabase.rows(db, "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                + "AND application_name = 'weir-postgres-sink' AND query LIKE '%" + table + "%'");
            if (!"0".equals(waiting.get(0)))
            {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the delivery never waited for the lock:\n" + Files.readString(log));
    }

    /** Wait until the child's log holds {@code text} (it fails if the child exits first); shared by the PostgreSQL run tests. */
    static void awaitLog(final Process child, final Path log, final String text) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (System.nanoTime() < deadline)
        {
            final String output = Files.readString(log);
            if (output.contains(text))
            {
                return;
            }
            assertTrue(child.isAlive(), "the child exited:\n" + output);
            Thread.sleep(50);
        }
        throw new AssertionError("no '" + text + "' in:\n" + Files.readString(log));
    }

    private long awaitRows(final Process child, final Path log, final long atLeast) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (System.nanoTime() < deadline)
        {
            assertTrue(child.isAlive(), "the child exited early:\n" + Files.readString(log));
            final long rows = tableRows(table);
            if (rows >= atLeast)
            {
                return rows;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("fewer than " + atLeast + " rows in " + table + " while following:\n" + Files.readString(log));
    }

    private long tableRows(final String name) throws SQLException
    {
        final List<String> exists = TestDatabase.rows(db, "SELECT to_regclass('" + name + "') IS NOT NULL");
        return "t".equals(exists.get(0)) ? Long.parseLong(TestDatabase.rows(db, "SELECT count(*) FROM " + name).get(0)) : 0;
    }

    private List<String> sortedRows(final String name) throws SQLException
    {
        final List<String> rows = TestDatabase.rows(db, "SELECT key, window_start, window_end, count, sum, min, max, version FROM " + name);
        Collections.sort(rows);
        return rows;
    }

    private static long results(final JournalDirectory journal)
    {
        final long[] results = {0};
        try (OutputJournal output = OutputJournal.open(journal))
        {
            output.readAll(stored ->
            {
                if (stored.isResult())
                {
                    results[0]++;
                }
            });
        }
        return results[0];
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
}
