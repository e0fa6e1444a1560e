package dev.weir.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.Weir;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputJournal;
import dev.weir.testsupport.TestDatabase;
import dev.weir.testsupport.TestTables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PostgreSQL sink against a real server: it delivers exactly the output journal's results (the
 * highest version of each window), a second delivery changes nothing, a delivery from an older or a wiped
 * position changes nothing either, and tables or offsets that do not match are refused untouched.
 */
@Tag("slow")
class PostgresSinkTest
{
    private static final String SELECT = "SELECT key, window_start, window_end, count, sum, min, max, version FROM ";

    @TempDir
    Path dir;

    @RegisterExtension
    final TestTables tables = new TestTables("sink_test");

    private Connection db;
    private String table;

    @BeforeEach
    void tables()
    {
        db = tables.db();
        table = tables.name();
    }

    @Test
    void deliversTheHighestVersionOfEveryWindowOnceAndAgainChangesNothing() throws SQLException
    {
        final JournalDirectory journal = journalWithLateRefirings(dir.resolve("j"), 30_000);
        final List<String> expected = OutputRows.highestVersions(journal);
        assertTrue(expected.size() > 100, "windows: " + expected.size());

        final Delivery first;
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 500))
        {
            first = sink.deliver(journal);
        }
        assertSameRows(expected, table(), "the table holds the highest version of each window");
        assertTrue(first.transactions() > 1, "several transactions: " + first);
        try (OutputJournal output = OutputJournal.open(journal))
        {
            assertEquals(output.lastPosition(), first.position());
        }
        assertEquals(List.of(first.position() + "," + OutputRows.lastSourceOffset(journal)), offsets(journal));
        assertTrue(first.results() > expected.size() && expected.stream().anyMatch(r -> r.endsWith(",2")), "re-fired windows were delivered as new versions: " + first);

        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 500))
        {
            final Delivery again = sink.deliver(journal);
            assertEquals(0, again.results(), "nothing new to deliver");
            assertEquals(first.position(), again.resumedAfter());
        }
        assertSameRows(expected, table(), "after a second delivery");

        // one transaction for everything: the batch holds several versions of a window, and keeps the highest
        TestDatabase.execute(db, "DROP TABLE " + table);
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 1_000_000))
        {
            TestDatabase.deleteOffsets(db, "journal_id = '" + journal.id() + "'");
            final Delivery whole = sink.deliver(journal);
            assertEquals(1, whole.transactions());
            assertEquals(expected.size(), whole.changed(), "one row per window");
        }
        assertSameRows(expected, table(), "delivered in one transaction");
    }

    /** Like assertEquals, but names the first difference instead of printing thousands of rows. */
    static void assertSameRows(final List<String> expected, final List<String> actual, final String what)
    {
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++)
        {
            assertEquals(expected.get(i), actual.get(i), what + ": first difference at row " + i);
        }
        assertEquals(expected.size(), actual.size(), what + ": rows");
    }

    @Test
    void deliveringAgainFromAnOlderOrAWipedPositionChangesNothing() throws SQLException
    {
        final JournalDirectory journal = journalWithLateRefirings(dir.resolve("j"), 20_000);
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 300))
        {
            sink.deliver(journal);
        }
        final List<String> delivered = table();

        TestDatabase.execute(db, "UPDATE weir_offsets SET output_position = -1, source_offset = -1 WHERE journal_id = '" + journal.id() + "'");
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 300))
        {
            final Delivery again = sink.deliver(journal);
            assertTrue(again.results() > 0);
            assertEquals(0, again.changed(), "every upsert found its version already there: " + again);
        }
        TestDatabase.deleteOffsets(db, "journal_id = '" + journal.id() + "'");
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 300))
        {
            assertEquals(0, sink.deliver(journal).changed());
        }
        assertSameRows(delivered, table(), "after deliveries from older positions");
    }

    @Test
    void aConnectionTheServerDroppedIsReplacedAtTheNextDelivery() throws SQLException, InterruptedException
    {
        final JournalDirectory journal = journalWithLateRefirings(dir.resolve("j"), 5_000);
        // the server is shared: only this sink's session is terminated, told by an application name of its own
        final String session = "application_name = '" + table + "'";
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.url("ApplicationName=" + table), table, 1_000);
            Connection otherSink = SinkConnection.connect(TestDatabase.URL))
        {
            final Delivery first = sink.deliver(journal);
            final List<String> terminated = TestDatabase.rows(db, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE " + session);
            assertEquals(List.of("t"), terminated, "the sink's session was terminated");
            awaitGone(session);
            assertTrue(otherSink.isValid(30), "another sink's session on the server was left alone");
            TestDatabase.deleteOffsets(db, "journal_id = '" + journal.id() + "'");
            final Delivery again = sink.deliver(journal);
            assertEquals(first.results(), again.results(), "everything delivered again, on a new connection");
            assertEquals(0, again.changed());
        }
        assertSameRows(OutputRows.highestVersions(journal), table(), "after the reconnection");
    }

    /** Wait until no session matches the condition (a terminated backend exits soon after the signal). */
    private void awaitGone(final String session) throws SQLException, InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (!"0".equals(TestDatabase.rows(db, "SELECT count(*) FROM pg_stat_activity WHERE " + session).get(0)))
        {
            assertTrue(System.nanoTime() < deadline, "the terminated session is still there: " + session);
            Thread.sleep(20);
        }
    }

    @Test
    void aTableIsFedByOneJournal() throws SQLException
    {
        final JournalDirectory first = journalWithLateRefirings(dir.resolve("first"), 3_000);
        final JournalDirectory second = journalWithLateRefirings(dir.resolve("second"), 4_000);
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 1_000))
        {
            sink.deliver(first);
            final List<String> delivered = table();
            final SinkRefusedException refused = assertThrows(SinkRefusedException.class, () -> sink.deliver(second));
            assertTrue(refused.getMessage().contains("a results table is fed by one journal"), refused.getMessage());
            assertSameRows(delivered, table(), "untouched by the refused journal");
            assertTrue(sink.deliver(first).results() == 0, "the first journal still delivers");
        }
        TestDatabase.deleteOffsets(db, "results_table = '" + table + "'");
    }

    @Test
    void aTableNamedLikeASqlKeywordWorks() throws SQLException
    {
        final String schema = table + "_schema"; // the server is shared: the test's own "order" and weir_offsets
        final JournalDirectory journal = journalWithLateRefirings(dir.resolve("j"), 2_000);
        TestDatabase.execute(db, "CREATE SCHEMA " + schema);
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.url("currentSchema=" + schema), "order", 1_000))
        {
            assertTrue(sink.deliver(journal).changed() > 0);
            assertSameRows(OutputRows.highestVersions(journal), sortedRows(SELECT + schema + ".\"order\""), "rows in a table named order");
        }
        finally
        {
            TestDatabase.execute(db, "DROP SCHEMA " + schema + " CASCADE");
        }
    }

    @Test
    void sessionsWithAUserAggregationArriveWithItsValue() throws SQLException
    {
        final Path path = dir.resolve("sessions");
        final SplittableRandom random = new SplittableRandom(11);
        try (EventJournal writer = EventJournal.openOrCreate(path))
        {
            for (int i = 0; i < 20_000; i++)
            {
                final long late = random.nextInt(100) == 0 ? 2_000 : random.nextInt(50);
                writer.append(i, Math.max(0, i * 3L - late), "k" + random.nextInt(30), random.nextInt(2_000) - 1_000);
            }
        }
        Weir.pipeline().journal(path).window(dev.weir.engine.window.SessionWindows.withGap(200)).outOfOrderness(50).allowedLateness(3_000)
            .aggregate(new dev.weir.engine.aggregate.Average()).build().runToEnd();
        final JournalDirectory journal = JournalDirectory.open(path);
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 1_000))
        {
            sink.deliver(journal);
        }
        final List<String> rows = sortedRows("SELECT key, window_start, window_end, count, sum, min, max, version, aggregate FROM " + table);
        // a session a late event extended supersedes its earlier, shorter rows: the table keeps the final sessions only
        final java.util.Set<String> finalWindows = new java.util.HashSet<>(OutputRows.finalWindows(journal, ResultsTableShape.DEFAULT));
        final List<String> highest = highestVersionsWithAggregate(journal);
        final List<String> expected = highest.stream().filter(r -> finalWindows.contains(r.substring(0, r.lastIndexOf(',')))).toList();
        assertTrue(expected.size() < highest.size(), "sessions grew after they fired: " + expected.size() + " of " + highest.size());
        assertSameRows(expected, rows, "final sessions with their Average");
        assertTrue(rows.stream().anyMatch(r -> Integer.parseInt(r.split(",")[7]) > 0), "late events re-fired sessions: versions above 0");
        for (final String row : rows)
        {
            final String[] f = row.split(",");
            assertEquals(Math.floorDiv(Long.parseLong(f[4]), Long.parseLong(f[3])), Long.parseLong(f[8]), "the mean, rounded down: " + row);
        }
    }

    /** The highest version of each window with the user aggregation's value, as rows sorted. */
    private static List<String> highestVersionsWithAggregate(final JournalDirectory journal)
    {
        final java.util.Map<String, String> rows = new java.util.HashMap<>();
        final java.util.Map<String, Integer> versions = new java.util.HashMap<>();
        try (dev.weir.journal.KeyDictionary keys = dev.weir.journal.KeyDictionary.open(journal); OutputJournal output = OutputJournal.open(journal))
        {
            output.readAll(stored ->
            {
                if (stored.isResult())
                {
                    final dev.weir.journal.codec.ResultDecoder r = stored.result();
                    assertTrue(r.hasAggregate(), "every result carries the aggregation");
                    final String window = keys.name(r.keyId()) + "," + r.windowStart() + "," + r.windowEnd();
                    if (versions.getOrDefault(window, -1) < r.version())
                    {
                        versions.put(window, r.version());
                        rows.put(window, window + "," + r.count() + "," + r.sum() + "," + r.min() + "," + r.max() + "," + r.version() + ","
                            + r.aggregate());
                    }
                }
            });
        }
        final List<String> sorted = new java.util.ArrayList<>(rows.values());
        java.util.Collections.sort(sorted);
        return sorted;
    }

    @Test
    void withAnEarlyConditionTheTableKeepsTheFinalRowsAndAnEarlyFlagAndNoUpdateRows() throws SQLException
    {
        final Path path = dir.resolve("early");
        final SplittableRandom random = new SplittableRandom(17);
        try (EventJournal writer = EventJournal.openOrCreate(path))
        {
            for (int i = 0; i < 20_000; i++)
            {
                final long late = random.nextInt(50) == 0 ? 1_000 + random.nextInt(1_500) : random.nextInt(100);
                writer.append(i, Math.max(0, i * 2L - late), "k" + random.nextInt(40), random.nextInt(1_000));
            }
        }
        Weir.pipeline().journal(path).window(TumblingWindows.of(1_000)).outOfOrderness(100).allowedLateness(3_000)
            .latePolicy(LatePolicy.SIDE).emitUpdates(true).earlyWhen("sum>=8000").build().runToEnd();
        final JournalDirectory journal = JournalDirectory.open(path);
        final java.util.Map<String, String> finals = new java.util.TreeMap<>();
        final java.util.Set<String> early = new java.util.HashSet<>();
        final long[] finalRows = {0};
        try (dev.weir.journal.KeyDictionary keys = dev.weir.journal.KeyDictionary.open(journal); OutputJournal output = OutputJournal.open(journal))
        {
            output.readAll(stored ->
            {
                if (stored.isResult())
                {
                    final dev.weir.journal.codec.ResultDecoder r = stored.result();
                    final String window = keys.name(r.keyId()) + "," + r.windowStart() + "," + r.windowEnd();
                    if (r.kind() == dev.weir.journal.codec.ResultKind.EARLY)
                    {
                        assertTrue(early.add(window), "one early row per window");
                    }
                    else if (r.kind() == dev.weir.journal.codec.ResultKind.FINAL)
                    {
                        finalRows[0]++;
                        finals.put(window, window + "," + r.count() + "," + r.sum() + "," + r.min() + "," + r.max() + "," + r.version());
                    }
                }
            });
        }
        final List<String> expected = new java.util.ArrayList<>();
        finals.forEach((window, row) -> expected.add(row + "," + (early.contains(window) ? "t" : "f")));
        java.util.Collections.sort(expected);
        assertTrue(early.size() > 20 && early.size() < finals.size(), "some windows alerted early: " + early.size() + " of " + finals.size());

        final ResultsTableShape shape = ResultsTableShape.DEFAULT.withEarly();
        final String query = "SELECT key, window_start, window_end, count, sum, min, max, version, early FROM " + table;
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, shape, 37))
        {
            final Delivery delivered = sink.deliver(journal);
            assertEquals(finalRows[0] + early.size(), delivered.results(), "final and early rows delivered, no update row");
        }
        assertSameRows(expected, sortedRows(query), "the highest final version of each window, early when it alerted early");

        TestDatabase.deleteOffsets(db, "results_table = '" + table + "'");
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, shape, 1_000))
        {
            sink.deliver(journal);
        }
        assertSameRows(expected, sortedRows(query), "delivering every row again changes nothing");
        assertThrows(SinkRefusedException.class, () -> PostgresSink.connect(TestDatabase.URL, table, ResultsTableShape.DEFAULT, 10).close(),
            "the table of a pipeline with an early condition is not the default table");
    }

    @Test
    void aTableDroppedAndCreatedAgainIsDeliveredAgainInFull() throws SQLException
    {
        final JournalDirectory journal = journalWithLateRefirings(dir.resolve("j"), 5_000);
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 1_000))
        {
            sink.deliver(journal);
        }
        final List<String> delivered = table();
        TestDatabase.execute(db, "DROP TABLE " + table); // its weir_offsets row stays behind
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 1_000))
        {
            assertEquals(-1, sink.deliver(journal).resumedAfter(), "the new table's delivery starts over");
        }
        assertSameRows(delivered, table(), "every row again, none lost to the old offsets");
    }

    @Test
    void aTableTruncatedBetweenDeliveriesGetsEveryRowAgain() throws SQLException
    {
        final JournalDirectory journal = journalWithLateRefirings(dir.resolve("j"), 5_000);
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 1_000))
        {
            final Delivery first = sink.deliver(journal);
            final List<String> delivered = table();
            assertTrue(delivered.size() > 50, "rows: " + delivered.size());

            TestDatabase.execute(db, "TRUNCATE " + table); // by a DBA, while the sink stays connected (a following run)
            final Delivery again = sink.deliver(journal);
            assertEquals(-1, again.resumedAfter(), "a truncated table's delivery starts over: " + again);
            assertEquals(first.position(), again.position());
            assertSameRows(delivered, table(), "every row back after TRUNCATE");

            assertEquals(0, sink.deliver(journal).results(), "then nothing new: the offsets name the new table");
        }
        TestDatabase.execute(db, "TRUNCATE " + table);
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 1_000))
        {
            assertEquals(-1, sink.deliver(journal).resumedAfter(), "a new sink sees the truncation too");
        }
        assertSameRows(OutputRows.highestVersions(journal), table(), "every row back after a second TRUNCATE");
    }

    /** A DELETE keeps the table's identity, so it is not detected; docs/guarantees.md's way back is deleting the offsets too. */
    @Test
    void rowsRemovedByDeleteComeBackOnceTheOffsetsRowIsDeletedToo() throws SQLException
    {
        final JournalDirectory journal = journalWithLateRefirings(dir.resolve("j"), 5_000);
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 1_000))
        {
            sink.deliver(journal);
            final List<String> delivered = table();
            TestDatabase.execute(db, "DELETE FROM " + table);
            assertEquals(0, sink.deliver(journal).results(), "a DELETE is not detected: nothing is delivered again");
            assertEquals(List.of(), table());

            TestDatabase.deleteOffsets(db, "results_table = '" + table + "'");
            assertEquals(-1, sink.deliver(journal).resumedAfter(), "without its offsets row the delivery starts over");
            assertSameRows(delivered, table(), "every row back");
        }
    }

    @Test
    void aDeliveryThatWaitsForALockFailsAtTheLockTimeoutWhichTheUrlMayChange() throws Exception
    {
        final JournalDirectory journal = journalWithLateRefirings(dir.resolve("j"), 3_000);
        final String shorter = TestDatabase.url("options=-c%20lock_timeout%3D1s");
        try (PostgresSink created = PostgresSink.connect(TestDatabase.URL, table, 1_000); Connection locker = TestDatabase.connect())
        {
            locker.setAutoCommit(false);
            TestDatabase.execute(locker, "LOCK TABLE " + table + " IN ACCESS EXCLUSIVE MODE"); // a DBA's long transaction
            final long defaultMs = msUntilTheLockTimesOut(TestDatabase.URL, journal);
            final long shorterMs = msUntilTheLockTimesOut(shorter, journal);
            locker.rollback();
            assertTrue(defaultMs >= (SinkConnection.LOCK_TIMEOUT_S - 1) * 1_000L, "the default lock_timeout: " + defaultMs + " ms");
            assertTrue(shorterMs < (SinkConnection.LOCK_TIMEOUT_S - 1) * 1_000L, "the URL's options win: " + shorterMs + " ms");
            assertSameRows(List.of(), table(), "nothing delivered while locked");
            created.deliver(journal);
        }
        assertSameRows(OutputRows.highestVersions(journal), table(), "delivered once the lock is gone");
    }

    /** Deliver while the table is locked: it must fail with lock_not_available, well before the socket's timeout. */
    private long msUntilTheLockTimesOut(final String url, final JournalDirectory journal)
    {
        return org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofMinutes(1), () ->
        {
            try (PostgresSink sink = PostgresSink.connect(url, table, 1_000))
            {
                final long started = System.nanoTime();
                final SQLException failed = assertThrows(SQLException.class, () -> sink.deliver(journal));
                assertEquals("55P03", failed.getSQLState(), failed.getMessage());
                return java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            }
        }, "a delivery waiting for a lock must fail at the session's lock_timeout");
    }

    @Test
    void anOffsetsTableOfAnEarlierVersionGetsTheIdentityColumnsAndKeepsItsOffsets() throws SQLException
    {
        final String schema = table + "_schema"; // its own weir_offsets, of the shape earlier versions created
        TestDatabase.execute(db, "CREATE SCHEMA " + schema);
        try
        {
            final String url = TestDatabase.url("currentSchema=" + schema);
            final JournalDirectory journal = journalWithLateRefirings(dir.resolve("j"), 3_000);
            TestDatabase.execute(db, "CREATE TABLE " + schema + ".weir_offsets (journal_id text NOT NULL, results_table text NOT NULL, "
                + "output_position bigint NOT NULL, source_offset bigint NOT NULL, updated_at timestamp with time zone NOT NULL DEFAULT now(), "
                + "PRIMARY KEY (journal_id, results_table))");
            final Delivery first;
            try (PostgresSink sink = PostgresSink.connect(url, table, 1_000))
            {
                first = sink.deliver(journal);
            }
            assertEquals(List.of("table_oid,bigint", "table_filenode,bigint"), TestDatabase.rows(db, "SELECT column_name, data_type "
                + "FROM information_schema.columns WHERE table_schema = '" + schema + "' AND table_name = 'weir_offsets' "
                + "AND column_name LIKE 'table\\_%' ORDER BY ordinal_position"), "added, nullable");
            try (PostgresSink sink = PostgresSink.connect(url, table, 1_000))
            {
                assertEquals(first.position(), sink.deliver(journal).resumedAfter(), "the offsets were kept");
            }
            TestDatabase.execute(db, "TRUNCATE " + schema + "." + table);
            try (PostgresSink sink = PostgresSink.connect(url, table, 1_000))
            {
                assertEquals(-1, sink.deliver(journal).resumedAfter(), "and now a truncation is seen");
            }
            assertSameRows(OutputRows.highestVersions(journal), sortedRows(SELECT + schema + "." + table), "every row back");
        }
        finally
        {
            TestDatabase.execute(db, "DROP SCHEMA " + schema + " CASCADE");
        }
    }

    @Test
    void aTableADbaDroppedAndCreatedAgainGetsEveryRowAgain() throws SQLException
    {
        final JournalDirectory journal = journalWithLateRefirings(dir.resolve("j"), 5_000);
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 1_000))
        {
            sink.deliver(journal);
        }
        final List<String> delivered = table();
        // the DBA (not Weir) creates an empty table of the same schema in its place: Weir sees a table that exists
        TestDatabase.execute(db, "CREATE TABLE " + table + "_new (LIKE " + table + " INCLUDING ALL)");
        TestDatabase.execute(db, "DROP TABLE " + table);
        TestDatabase.execute(db, "ALTER TABLE " + table + "_new RENAME TO " + table);
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 1_000))
        {
            assertEquals(-1, sink.deliver(journal).resumedAfter(), "the re-created table's delivery starts over");
            assertEquals(0, sink.deliver(journal).results(), "then nothing new");
        }
        assertSameRows(delivered, table(), "every row back in the re-created table");
    }

    @Test
    void aLowerVersionNeverReplacesAHigherOne() throws SQLException
    {
        final JournalDirectory journal = journalWithLateRefirings(dir.resolve("j"), 5_000);
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 1_000))
        {
            sink.deliver(journal);
        }
        final String someKey = TestDatabase.rows(db, "SELECT key FROM " + table + " ORDER BY key, window_start LIMIT 1").get(0);
        TestDatabase.execute(db, "UPDATE " + table + " SET version = 99, count = -1 WHERE key = '" + someKey + "'");
        final List<String> tampered = table();
        TestDatabase.deleteOffsets(db, "journal_id = '" + journal.id() + "'");
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 1_000))
        {
            sink.deliver(journal);
        }
        assertSameRows(tampered, table(), "rows of version 99 stay; the others were already equal");
    }

    @Test
    void aTableThatDoesNotMatchIsRefusedAndLeftAsItWas() throws SQLException
    {
        TestDatabase.execute(db, "CREATE TABLE " + table + " (key text, window_start bigint, window_end bigint, count bigint, "
            + "sum numeric, min bigint, max bigint, version integer, source_offset bigint, PRIMARY KEY (key, window_start))");
        TestDatabase.execute(db, "INSERT INTO " + table + " VALUES ('k', 0, 10, 1, 1, 1, 1, 1, 0)");
        final SinkRefusedException refused = assertThrows(SinkRefusedException.class, () -> PostgresSink.connect(TestDatabase.URL, table, 10));
        assertTrue(refused.getMessage().contains("column sum is numeric, expected bigint"), refused.getMessage());
        assertTrue(refused.getMessage().contains("column aggregate bigint is missing"), refused.getMessage());
        assertTrue(refused.getMessage().contains("no primary key or unique index on exactly (key, window_start, window_end)"), refused.getMessage());
        assertEquals(List.of("k,0,10,1,1,1,1,1"), table());
        assertEquals(List.of("window_start", "window_end", "count", "sum", "min", "max", "version", "source_offset"),
            TestDatabase.rows(db, "SELECT column_name FROM information_schema.columns WHERE table_name = '" + table
                + "' AND column_name <> 'key' ORDER BY ordinal_position"), "not altered");

        TestDatabase.execute(db, "DROP TABLE " + table);
        TestDatabase.execute(db, "CREATE TABLE " + table + " (key text, window_start bigint, window_end bigint, count bigint, "
            + "sum bigint, min bigint, max bigint, version integer, source_offset bigint, aggregate bigint NOT NULL, "
            + "UNIQUE (key, window_start, window_end) DEFERRABLE INITIALLY DEFERRED)");
        final SinkRefusedException unusable = assertThrows(SinkRefusedException.class, () -> PostgresSink.connect(TestDatabase.URL, table, 10));
        assertTrue(unusable.getMessage().contains("column aggregate is NOT NULL"), unusable.getMessage());
        assertTrue(unusable.getMessage().contains("no primary key or unique index"), "a deferrable key cannot serve ON CONFLICT: "
            + unusable.getMessage());

        assertThrows(SinkRefusedException.class, () -> PostgresSink.connect(TestDatabase.URL, "Results; DROP TABLE x", 10));
        assertThrows(SinkRefusedException.class, () -> PostgresSink.connect(TestDatabase.URL, "weir_offsets", 10));
    }

    @Test
    void theDefaultColumnsCreateTheTableOfBeforeColumns() throws SQLException
    {
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 10))
        {
            assertEquals(table, sink.table());
        }
        // the statement of the versions before columns existed
        TestDatabase.execute(db, "CREATE TABLE " + table + "_before (key text NOT NULL, window_start bigint NOT NULL, window_end bigint NOT NULL, "
            + "count bigint NOT NULL, sum bigint NOT NULL, min bigint NOT NULL, max bigint NOT NULL, version integer NOT NULL, "
            + "source_offset bigint NOT NULL, aggregate bigint, PRIMARY KEY (key, window_start, window_end))");
        assertEquals(tableDefinition(table + "_before"), tableDefinition(table));
        assertEquals(10, tableDefinition(table).size() - 1);
    }

    /** Its columns (name, type, not null, default) in order, then its primary key's columns in order. */
    private List<String> tableDefinition(final String name) throws SQLException
    {
        final List<String> definition = TestDatabase.rows(db, "SELECT attname, format_type(atttypid, atttypmod), attnotnull, atthasdef "
            + "FROM pg_attribute WHERE attrelid = to_regclass('" + name + "') AND attnum > 0 AND NOT attisdropped ORDER BY attnum");
        definition.addAll(TestDatabase.rows(db, "SELECT string_agg(a.attname, ',' ORDER BY array_position(i.indkey::int2[], a.attnum)) "
            + "FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) WHERE i.indrelid = to_regclass('"
            + name + "') AND i.indisprimary GROUP BY i.indexrelid"));
        return definition;
    }

    @Test
    void anExtraColumnWithADefaultIsAllowed() throws SQLException
    {
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 10))
        {
            assertEquals(table, sink.table());
        }
        TestDatabase.execute(db, "ALTER TABLE " + table + " ADD COLUMN loaded_at timestamptz NOT NULL DEFAULT now()");
        final JournalDirectory journal = journalWithLateRefirings(dir.resolve("j"), 2_000);
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 10))
        {
            assertTrue(sink.deliver(journal).results() > 0);
        }
        TestDatabase.execute(db, "ALTER TABLE " + table + " ADD COLUMN batch_id integer NOT NULL DEFAULT 0");
        TestDatabase.execute(db, "ALTER TABLE " + table + " ALTER COLUMN batch_id DROP DEFAULT");
        final SinkRefusedException refused = assertThrows(SinkRefusedException.class, () -> PostgresSink.connect(TestDatabase.URL, table, 10));
        assertTrue(refused.getMessage().contains("extra column batch_id is NOT NULL without a default"), refused.getMessage());
    }

    @Test
    void offsetsThatAreNotThisJournalsAreRefused() throws SQLException
    {
        final JournalDirectory journal = journalWithLateRefirings(dir.resolve("j"), 2_000);
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 10))
        {
            sink.deliver(journal);
            TestDatabase.execute(db, "UPDATE weir_offsets SET output_position = 123456789012 WHERE journal_id = '" + journal.id() + "'");
            final SinkRefusedException refused = assertThrows(SinkRefusedException.class, () -> sink.deliver(journal));
            assertTrue(refused.getMessage().contains("has no output there"), refused.getMessage());
        }
        TestDatabase.deleteOffsets(db, "journal_id = '" + journal.id() + "'");
    }

    /** Tumbling windows of 1 s over a stream with late events that re-fire their windows (versions 2, 3 ...). */
    private static JournalDirectory journalWithLateRefirings(final Path path, final int events)
    {
        final SplittableRandom random = new SplittableRandom(events);
        try (EventJournal writer = EventJournal.openOrCreate(path))
        {
            for (int i = 0; i < events; i++)
            {
                final long late = random.nextInt(50) == 0 ? 1_000 + random.nextInt(1_500) : random.nextInt(100);
                writer.append(i, Math.max(0, i * 2L - late), "k" + random.nextInt(40), random.nextInt(1_000));
            }
        }
        Weir.pipeline().journal(path).window(TumblingWindows.of(1_000)).outOfOrderness(100).allowedLateness(3_000)
            .latePolicy(LatePolicy.SIDE).checkpointEvery(5_000).build().runToEnd();
        return JournalDirectory.open(path);
    }

    private List<String> table() throws SQLException
    {
        return sortedRows(SELECT + table);
    }

    private List<String> sortedRows(final String query) throws SQLException
    {
        final List<String> rows = TestDatabase.rows(db, query);
        java.util.Collections.sort(rows); // the order of highestVersions(), whatever the database's collation
        return rows;
    }

    private List<String> offsets(final JournalDirectory journal) throws SQLException
    {
        return TestDatabase.rows(db, "SELECT output_position, source_offset FROM weir_offsets WHERE journal_id = '" + journal.id()
            + "' AND results_table = '" + table + "'");
    }
}
