package dev.weir.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

import dev.weir.engine.Weir;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.engine.window.WindowSpec;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.codec.ResultKind;
import dev.weir.testsupport.TestDatabase;
import dev.weir.testsupport.TestTables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * After a delivery the results table holds exactly one row per final window of the output journal
 * ({@link OutputRows#finalWindows}), flagged early when an early row fired for it: for tumbling, sliding and
 * session windows (sessions that grow and merge), in order or with late events that re-fire windows, with
 * and without update rows, in transactions of any size; and delivering everything again changes nothing.
 */
@Tag("slow")
class FinalWindowsTest
{
    private static final String COLUMNS = "key, window_start, window_end, count, sum, min, max, version, early";

    @TempDir
    Path dir;

    @RegisterExtension
    final TestTables tables = new TestTables("final_windows_test");

    private Connection db;
    private String table;

    @BeforeEach
    void tables()
    {
        db = tables.db();
        table = tables.name();
    }

    /** The example of issue 28: the session grew after its early row fired, so the early row's window is not the final one. */
    @Test
    void aSessionThatGrewAfterItsEarlyRowIsOneRowFlaggedEarly() throws SQLException
    {
        final Path path = dir.resolve("e");
        try (EventJournal writer = EventJournal.openOrCreate(path))
        {
            writer.append(1, 0, "a", 10);
            writer.append(2, 1_000, "a", 10);
            writer.append(3, 2_000, "a", 10);
            writer.append(4, 100_000, "b", 1);
        }
        Weir.pipeline().journal(path).window(SessionWindows.withGap(30_000)).earlyWhen("count>=2").build().runToEnd();
        final JournalDirectory journal = JournalDirectory.open(path);
        final Delivery delivery = deliver(journal, 1);

        assertEquals(List.of("a,0,32000,3,30,10,10,0,t", "b,100000,130000,1,1,1,1,0,f"), table(),
            "one row per session, the grown one flagged early, no early row left beside it");
        assertEquals(List.of("2,4,31"), TestDatabase.rows(db, "SELECT count(*), sum(count), sum(sum) FROM " + table), "COUNT and SUM count each event once");
        assertEquals(OutputRows.finalWindows(journal, shape()), table());
        assertEquals(3, delivery.results(), "the early row and two final rows");
    }

    /**
     * Seeded random streams of 8 keys: with lateness, some events arrive seconds late and re-fire their windows
     * (and bridge two sessions); updates, when on, are not delivered.
     */
    @ParameterizedTest(name = "{0} seed {1} late={2} updates={3} batch={4}")
    @CsvSource({
        "tumbling, 1, false, false, 1000",
        "tumbling, 2, true, true, 7",
        "sliding, 3, false, true, 1000",
        "sliding, 4, true, false, 5",
        "session, 5, false, false, 3",
        "session, 6, true, false, 1000",
        "session, 7, true, true, 4",
        "session, 8, true, false, 1",
    })
    void everyWindowKindEndsWithOneRowPerFinalWindowFlaggedEarlyWhenItAlerted(
        final String kind, final long seed, final boolean late, final boolean updates, final int batch) throws SQLException
    {
        final Path path = dir.resolve("j");
        final SplittableRandom random = new SplittableRandom(seed);
        try (EventJournal writer = EventJournal.openOrCreate(path))
        {
            for (int i = 0; i < 3_000; i++)
            {
                final long delay = late && random.nextInt(25) == 0 ? 400 + random.nextInt(2_500) : random.nextInt(120);
                writer.append(i, Math.max(0, 10_000 + i * 40L - delay), "k" + random.nextInt(8), random.nextInt(100));
            }
        }
        final WindowSpec window = kind.equals("tumbling") ? TumblingWindows.of(1_000)
            : kind.equals("sliding") ? SlidingWindows.of(3_000, 1_000) : SessionWindows.withGap(300);
        Weir.pipeline().journal(path).window(window).outOfOrderness(100).allowedLateness(late ? 2_000 : 0).latePolicy(LatePolicy.SIDE)
            .emitUpdates(updates).earlyWhen("count>=3").build().runToEnd();
        final JournalDirectory journal = JournalDirectory.open(path);
        final List<String> expected = OutputRows.finalWindows(journal, shape());
        final long[] kinds = kinds(journal);
        assertTrue(kinds[1] > 20 && kinds[1] < expected.size(), "some windows alerted early: " + kinds[1] + " of " + expected.size());
        if (kind.equals("session"))
        {
            assertTrue(kinds[2] > expected.size(), "sessions grew or merged after a firing or an early row: " + kinds[2]
                + " windows in final and early rows, " + expected.size() + " final windows");
        }

        final Delivery first = deliver(journal, batch);
        assertEquals(kinds[0] + kinds[1], first.results(), "every final and early row delivered, no update row");
        PostgresSinkTest.assertSameRows(expected, table(), "one row per final window, early when it alerted");

        TestDatabase.deleteOffsets(db, "journal_id = '" + journal.id() + "'");
        final Delivery again = deliver(journal, Math.max(batch, 100));
        assertEquals(0, again.changed(), "delivering everything again changes nothing: " + again);
        PostgresSinkTest.assertSameRows(expected, table(), "after delivering everything again");
    }

    private ResultsTableShape shape()
    {
        return ResultsTableShape.DEFAULT.withEarly();
    }

    private Delivery deliver(final JournalDirectory journal, final int batch) throws SQLException
    {
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, shape(), batch))
        {
            return sink.deliver(journal);
        }
    }

    /** @return {final rows, early rows, the distinct windows (key, start, end) of both} of the journal's output journal. */
    private static long[] kinds(final JournalDirectory journal)
    {
        final long[] counts = new long[3];
        final java.util.Set<String> windows = new java.util.HashSet<>();
        try (OutputJournal output = OutputJournal.open(journal))
        {
            output.readAll(stored ->
            {
                if (stored.isResult() && stored.result().kind() != ResultKind.UPDATE)
                {
                    counts[stored.result().kind() == ResultKind.FINAL ? 0 : 1]++;
                    windows.add(stored.result().keyId() + "," + stored.result().windowStart() + "," + stored.result().windowEnd());
                }
            });
        }
        counts[2] = windows.size();
        return counts;
    }

    private List<String> table() throws SQLException
    {
        final List<String> rows = TestDatabase.rows(db, "SELECT " + COLUMNS + " FROM " + table);
        Collections.sort(rows);
        return rows;
    }
}
