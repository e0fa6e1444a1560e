package dev.weir.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

import dev.weir.engine.Weir;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.testsupport.TestDatabase;
import dev.weir.testsupport.TestTables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The late-events table against a real server: every late event of the output journal arrives once, in the
 * transactions of the results, and delivering the output journal again from its start inserts none twice.
 */
@Tag("slow")
class LateEventsTableTest
{
    @TempDir
    Path dir;

    @RegisterExtension
    final TestTables tables = new TestTables("late_test");

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
    void everyLateEventArrivesOnceAndADeliveryFromTheStartInsertsNoneAgain() throws SQLException
    {
        final JournalDirectory journal = journalWithLateEvents(dir.resolve("j"), 20_000);
        final List<String> expected = OutputRows.lateEvents(journal, ResultsTableShape.DEFAULT);
        assertTrue(expected.size() > 50, "late events: " + expected.size());

        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, late, ResultsTableShape.DEFAULT, 300))
        {
            final Delivery first = sink.deliver(journal);
            assertTrue(first.transactions() > 1, "several transactions: " + first);
            assertEquals(expected.size(), sink.lateEventsDelivered());
        }
        assertEquals(expected, lateRows(), "one row per late event");
        assertEquals(OutputRows.highestVersions(journal), resultRows(), "the results beside them");

        // delivered again from the start (the offsets wiped): nothing inserted twice
        TestDatabase.execute(db, "UPDATE weir_offsets SET output_position = -1, source_offset = -1 WHERE journal_id = '" + journal.id() + "'");
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, late, ResultsTableShape.DEFAULT, 300))
        {
            sink.deliver(journal);
        }
        assertEquals(expected, lateRows(), "still one row per late event");
    }

    @Test
    void withoutALateTableLateEventsArePassedOverAndNoTableIsMade() throws SQLException
    {
        final JournalDirectory journal = journalWithLateEvents(dir.resolve("j"), 5_000);
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 300))
        {
            sink.deliver(journal);
            assertEquals(0, sink.lateEventsDelivered());
        }
        assertEquals(List.of("f"), TestDatabase.rows(db, "SELECT to_regclass('" + late + "') IS NOT NULL"));
    }

    @Test
    void aLateTableThatDoesNotMatchIsRefused() throws SQLException
    {
        TestDatabase.execute(db, "CREATE TABLE " + late + " (results_table text, key text, value bigint, event_id bigint, event_time bigint)");
        final SinkRefusedException refused = assertThrows(SinkRefusedException.class,
            () -> PostgresSink.connect(TestDatabase.URL, table, late, ResultsTableShape.DEFAULT, 300).close());
        assertTrue(refused.getMessage().contains("column event_offset bigint is missing"), refused.getMessage());
        assertThrows(SinkRefusedException.class, () -> PostgresSink.deferred(TestDatabase.URL, table, table, ResultsTableShape.DEFAULT, 300));
    }

    /** Tumbling windows of 1 s, no allowed lateness, over a stream where one event in twenty is seconds late. */
    private static JournalDirectory journalWithLateEvents(final Path path, final int events)
    {
        final SplittableRandom random = new SplittableRandom(events);
        try (EventJournal writer = EventJournal.openOrCreate(path))
        {
            for (int i = 0; i < events; i++)
            {
                final long lateBy = random.nextInt(20) == 0 ? 1_000 + random.nextInt(2_000) : 0;
                writer.append(i, Math.max(0, i * 2L - lateBy), "k" + random.nextInt(40), random.nextInt(1_000));
            }
        }
        Weir.pipeline().journal(path).window(TumblingWindows.of(1_000)).latePolicy(LatePolicy.SIDE).checkpointEvery(5_000).build().runToEnd();
        return JournalDirectory.open(path);
    }

    private List<String> lateRows() throws SQLException
    {
        final List<String> rows = TestDatabase.rows(db, "SELECT key, value, event_id, event_time, event_offset FROM " + late
            + " WHERE results_table = '" + table + "'");
        Collections.sort(rows);
        return rows;
    }

    private List<String> resultRows() throws SQLException
    {
        final List<String> rows = TestDatabase.rows(db, "SELECT key, window_start, window_end, count, sum, min, max, version FROM " + table);
        Collections.sort(rows);
        return rows;
    }
}
