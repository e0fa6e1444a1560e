package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.postgres.OutputRows;
import dev.weir.postgres.ResultsTableShape;
import dev.weir.testsupport.KillHarness;
import dev.weir.testsupport.TcpForwarder;
import dev.weir.testsupport.TestDatabase;
import dev.weir.testsupport.TestTables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Late events of {@code --late side} reach PostgreSQL's late-events table exactly once, like the results: across
 * SIGKILLs of the delivering run, across a database outage while following, and for a follower with
 * {@code --retention} (which has no late-events file). The table must equal the output journal's late events,
 * one row each.
 */
@Tag("slow")
class PostgresLateEventsTest
{
    private static final int KILLS = 4;

    @TempDir
    Path dir;

    @RegisterExtension
    final TestTables tables = new TestTables("late_run");

    private Connection db;
    private String table;
    private String late;

    @BeforeEach
    void tables()
    {
        db = tables.db();
        table = tables.name();
        late = table + "_late";
    }

    @Test
    void killedWhileDeliveringTheLateTableStillHoldsEachLateEventOnce() throws Exception
    {
        final Path input = dir.resolve("events.csv");
        writeEventsCsv(input, 60_000);
        final Path journal = dir.resolve("journal");
        final String[] run = {"run", "--input", input.toString(), "--journal", journal.toString(), "--window", "tumbling:1s", "--late", "side",
            "--jdbc-url", TestDatabase.URL, "--jdbc-table", table, "--jdbc-late-table", late, "--jdbc-batch", "100"};
        final SplittableRandom random = new SplittableRandom(5);
        int kills = 0;
        for (int attempt = 0; ; attempt++)
        {
            assertTrue(attempt < KILLS * 10, "too many attempts");
            final Path log = dir.resolve("child-" + attempt + ".log");
            final long before = deliveredPosition(journal);
            final Process child = KillHarness.startChild(run, log);
            if (kills < KILLS)
            {
                awaitDeliveryProgress(child, journal, before);
                Thread.sleep(random.nextInt(100));
                if (child.isAlive())
                {
                    child.destroyForcibly(); // SIGKILL, just after a delivery transaction committed
                    child.waitFor();
                    kills++;
                    continue;
                }
            }
            assertTrue(child.waitFor(10, TimeUnit.MINUTES), "a run to completion");
            assertEquals(0, child.exitValue(), Files.readString(log));
            break;
        }
        final JournalDirectory directory = JournalDirectory.open(journal);
        final List<String> expected = OutputRows.lateEvents(directory, ResultsTableShape.DEFAULT);
        assertTrue(expected.size() > 500, "late events: " + expected.size());
        assertEquals(expected, lateRows(), "one row per late event after " + kills + " kills");
        assertEquals(OutputRows.highestVersions(directory), resultRows(), "and the results beside them");
    }

    @Test
    void aFollowerRidesOutADatabaseOutageAndDeliversEachLateEventOnce() throws Exception
    {
        final Path journal = dir.resolve("journal");
        append(journal, 0, 20_000);
        try (TcpForwarder forwarder = TcpForwarder.toTestDatabase())
        {
            final Path log = dir.resolve("child.log");
            final Process child = KillHarness.startChild(new String[] {"run", "--journal", journal.toString(), "--window", "tumbling:1s",
                "--late", "side", "--follow", "--jdbc-url", forwarder.url(), "--jdbc-table", table, "--jdbc-late-table", late}, log);
            try
            {
                awaitLateRows(child, log, 1);
                forwarder.cut(); // down while following, with connections open
                append(journal, 20_000, 40_000);
                // the first rows may have come in several deliveries: count once the sink has seen the outage (a
                // transaction under way then has failed), and again after its next retry
                PostgresOutageTest.awaitLog(child, log, "retrying in");
                final long down = awaitLateRows(child, log, 0);
                awaitOccurrences(child, log, "retrying in", occurrences(log, "retrying in") + 1);
                assertEquals(down, awaitLateRows(child, log, 0), "nothing reached the table while it was down");
                forwarder.restore();
                awaitLateRows(child, log, down + 1);
            }
            finally
            {
                child.destroy(); // SIGTERM: the last delivery
                assertTrue(child.waitFor(2, TimeUnit.MINUTES), "stopped");
            }
            assertEquals(143, child.exitValue(), Files.readString(log));
        }
        final JournalDirectory directory = JournalDirectory.open(journal);
        assertEquals(OutputRows.lateEvents(directory, ResultsTableShape.DEFAULT), lateRows(), "one row per late event");
        assertEquals(OutputRows.highestVersions(directory), resultRows(), "and the results beside them");
    }

    @Test
    void aRetainedFollowerKeepsItsLateEventsInPostgres() throws Exception
    {
        final Path journal = dir.resolve("journal");
        append(journal, 0, 20_000);
        final Path log = dir.resolve("child.log");
        final Process child = KillHarness.startChild(new String[] {"run", "--journal", journal.toString(), "--window", "tumbling:1s",
            "--late", "side", "--follow", "--retention", "1h", "--jdbc-url", TestDatabase.URL, "--jdbc-table", table}, log);
        try
        {
            awaitLateRows(child, log, 1);
        }
        finally
        {
            child.destroy();
            assertTrue(child.waitFor(2, TimeUnit.MINUTES), "stopped");
        }
        assertEquals(143, child.exitValue(), Files.readString(log));
        try
        {
            assertEquals(OutputRows.lateEvents(JournalDirectory.open(journal), ResultsTableShape.DEFAULT),
                sorted("SELECT key, value, event_id, event_time, event_offset FROM weir_late WHERE results_table = '" + table + "'"),
                "one row per late event, in the default late-events table");
        }
        finally
        {
            TestDatabase.execute(db, "DELETE FROM weir_late WHERE results_table = '" + table + "'"); // a table the test database shares
        }
    }

    /** Events 1 ms apart over 10 keys; one in twenty is 1 to 3 s late (past the watermark: no allowed lateness). */
    private static void writeEventsCsv(final Path file, final int events) throws Exception
    {
        final SplittableRandom random = new SplittableRandom(events);
        final List<String> lines = new ArrayList<>(List.of("event_id,event_time,key,value"));
        for (int i = 0; i < events; i++)
        {
            lines.add(i + "," + eventTime(i, random) + ",k" + i % 10 + "," + i % 1_000);
        }
        Files.write(file, lines);
    }

    private static long eventTime(final int i, final SplittableRandom random)
    {
        return random.nextInt(20) == 0 ? Math.max(0, i - 1_000 - random.nextInt(2_000)) : i;
    }

    /** Events i in [from, to), as {@link #writeEventsCsv} writes them. */
    private static void append(final Path journal, final int from, final int to)
    {
        final SplittableRandom random = new SplittableRandom(from);
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            for (int i = from; i < to; i++)
            {
                writer.append(i, eventTime(i, random), "k" + i % 10, i % 1_000);
            }
        }
    }

    private void awaitDeliveryProgress(final Process child, final Path journal, final long before) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (child.isAlive() && deliveredPosition(journal) <= before && System.nanoTime() < deadline)
        {
            Thread.sleep(5);
        }
    }

    private long deliveredPosition(final Path journal) throws SQLException
    {
        if (!JournalDirectory.isJournal(journal))
        {
            return -1;
        }
        final List<String> position = TestDatabase.rows(db, "SELECT output_position FROM weir_offsets WHERE journal_id = '"
            + JournalDirectory.open(journal).id() + "' AND results_table = '" + table + "'");
        return position.isEmpty() ? -1 : Long.parseLong(position.get(0));
    }

    private static int occurrences(final Path log, final String text) throws IOException
    {
        final String output = Files.readString(log);
        int count = 0;
        for (int at = output.indexOf(text); at >= 0; at = output.indexOf(text, at + text.length()))
        {
            count++;
        }
        return count;
    }

    /** Wait until the child's log holds {@code text} at least {@code atLeast} times (it fails if the child exits first). */
    private static void awaitOccurrences(final Process child, final Path log, final String text, final int atLeast) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (occurrences(log, text) < atLeast)
        {
            assertTrue(child.isAlive(), "the child exited:\n" + Files.readString(log));
            assertTrue(System.nanoTime() < deadline, atLeast + " times '" + text + "' expected in:\n" + Files.readString(log));
            Thread.sleep(50);
        }
    }

    private long awaitLateRows(final Process child, final Path log, final long atLeast) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (System.nanoTime() < deadline)
        {
            assertTrue(child.isAlive(), "the child exited early:\n" + Files.readString(log));
            final long rows = count(late) + count("weir_late");
            if (rows >= atLeast)
            {
                return rows;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("fewer than " + atLeast + " late events while following:\n" + Files.readString(log));
    }

    private long count(final String name) throws SQLException
    {
        final List<String> exists = TestDatabase.rows(db, "SELECT to_regclass('" + name + "') IS NOT NULL");
        return "t".equals(exists.get(0))
            ? Long.parseLong(TestDatabase.rows(db, "SELECT count(*) FROM " + name + " WHERE results_table = '" + table + "'").get(0)) : 0;
    }

    private List<String> lateRows() throws SQLException
    {
        return sorted("SELECT key, value, event_id, event_time, event_offset FROM " + late + " WHERE results_table = '" + table + "'");
    }

    private List<String> resultRows() throws SQLException
    {
        return sorted("SELECT key, window_start, window_end, count, sum, min, max, version FROM " + table);
    }

    private List<String> sorted(final String query) throws SQLException
    {
        final List<String> rows = TestDatabase.rows(db, query);
        Collections.sort(rows);
        return rows;
    }
}
