package dev.weir.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

import dev.weir.engine.Weir;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalOffsets;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.codec.ResultKind;
import dev.weir.testsupport.BatchedJournals;
import dev.weir.testsupport.TestDatabase;
import dev.weir.testsupport.TestTables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PostgreSQL sink over a journal whose outputs are written several to a document (marker version 5): transactions of
 * 37 outputs commit positions inside batched documents, and a delivery resumed after any position (inside a batch, at
 * its last slot, at a single document) delivers exactly the results after it: none twice, none skipped at a boundary.
 * The table ends as a delivery of the same outputs written one to a document leaves it.
 */
@Tag("slow")
class BatchedOutputsDeliveryTest
{
    private static final String SELECT = "SELECT key, window_start, window_end, count, sum, min, max, version FROM ";

    @TempDir
    Path dir;

    @RegisterExtension
    final TestTables tables = new TestTables("batched_test");

    private Connection db;
    private String table;

    @BeforeEach
    void tables()
    {
        db = tables.db();
        table = tables.name();
    }

    @Test
    void aDeliveryResumedAfterAnyPositionInsideABatchDeliversExactlyTheResultsAfterIt() throws SQLException
    {
        final JournalDirectory single = journal(dir.resolve("single"));
        final JournalDirectory journal = journal(BatchedJournals.create(dir.resolve("batched")));
        final List<String> expected = OutputRows.highestVersions(journal);
        assertEquals(OutputRows.highestVersions(single), expected, "the same outputs either way");

        final List<Long> positions = new ArrayList<>();
        final List<Long> resultsAfter = new ArrayList<>();
        try (OutputJournal output = OutputJournal.open(journal))
        {
            final List<Boolean> delivered = new ArrayList<>();
            output.seekAfter(OutputJournal.NONE);
            while (output.next(stored -> delivered.add(stored.isResult() && stored.result().kind() != ResultKind.UPDATE)) != 0)
            {
                positions.add(output.lastReadPosition());
            }
            long after = 0;
            for (int i = delivered.size() - 1; i >= 0; i--)
            {
                resultsAfter.add(after);
                after += delivered.get(i) ? 1 : 0;
            }
            Collections.reverse(resultsAfter);
        }

        final Delivery first;
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 37))
        {
            first = sink.deliver(journal);
        }
        assertTrue(first.transactions() > 10, "transactions of 37 outputs: " + first);
        assertEquals(positions.get(positions.size() - 1), first.position());
        assertEquals(expected, sortedRows(SELECT + table));

        final SplittableRandom random = new SplittableRandom(3);
        final List<Integer> resumeAfter = new ArrayList<>();
        for (int i = 0; i < 130; i++)
        {
            resumeAfter.add(i); // every slot of the first documents, their boundaries among them
        }
        for (int i = 0; i < 20; i++)
        {
            resumeAfter.add(random.nextInt(positions.size()));
        }
        int inside = 0;
        for (final int i : resumeAfter)
        {
            final long position = positions.get(i);
            if (i + 1 < positions.size() && JournalOffsets.SLOTTED.index(positions.get(i + 1)) == JournalOffsets.SLOTTED.index(position))
            {
                inside++;
            }
            TestDatabase.execute(db, "UPDATE weir_offsets SET output_position = " + position + " WHERE journal_id = '" + journal.id() + "'");
            try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 37))
            {
                final Delivery again = sink.deliver(journal);
                assertEquals(position, again.resumedAfter());
                assertEquals((long)resultsAfter.get(i), again.results(), "results delivered after output " + i + " at position " + position);
                assertEquals(first.position(), again.position());
            }
        }
        assertTrue(inside > 100, "resumed inside batched documents: " + inside);
        assertEquals(expected, sortedRows(SELECT + table), "upserts keep the highest version: nothing changed");
    }

    private static JournalDirectory journal(final Path path)
    {
        final SplittableRandom random = new SplittableRandom(11);
        try (EventJournal writer = EventJournal.openOrCreate(path))
        {
            for (int i = 0; i < 20_000; i++)
            {
                final long late = random.nextInt(50) == 0 ? 1_000 + random.nextInt(1_500) : random.nextInt(100);
                writer.append(i, Math.max(0, i * 2L - late), "k" + random.nextInt(40), random.nextInt(1_000));
            }
        }
        Weir.pipeline().journal(path).window(TumblingWindows.of(1_000)).outOfOrderness(100).allowedLateness(3_000)
            .latePolicy(LatePolicy.SIDE).checkpointEvery(5_000).build().runToEnd();
        return JournalDirectory.open(path);
    }

    private List<String> sortedRows(final String query) throws SQLException
    {
        final List<String> rows = TestDatabase.rows(db, query);
        Collections.sort(rows);
        return rows;
    }
}
