package dev.weir.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.time.Instant;
import java.util.List;

import dev.weir.engine.Weir;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalCycles;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.retention.OutputHistory;
import dev.weir.testsupport.TestDatabase;
import dev.weir.testsupport.TestTables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Once retention removed the oldest cycles of a pipeline's output journal ({@link OutputHistory} present), a delivery
 * that would start from its beginning (the database holds position -1) is refused, naming what was removed, rather
 * than leave the table silently without those results, and so is one from a position retention removed; a delivery
 * that continues from a position it holds goes on.
 */
@Tag("slow")
class DeliveryAfterRetentionTest
{
    @TempDir
    Path dir;

    @RegisterExtension
    final TestTables tables = new TestTables("retained_test");

    private Connection db;
    private String table;

    @BeforeEach
    void tables()
    {
        db = tables.db();
        table = tables.name();
    }

    @Test
    void aDeliveryFromTheStartOfARetainedOutputJournalIsRefused() throws Exception
    {
        final Path path = dir.resolve("j");
        final JournalDirectory journal = journal(path, 0, 2_000);
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, 300))
        {
            final long delivered = sink.deliver(journal).position();
            final JournalDirectory pipeline = journal.pipeline(JournalDirectory.DEFAULT_PIPELINE);
            final Path archive = dir.resolve("archive");
            new OutputHistory(journal.id(), JournalCycles.results(pipeline).oldestOffset(), 27, 25, 4_096,
                Instant.parse("2026-11-28T12:00:00Z").toEpochMilli(), archive, Instant.now()).write(pipeline);

            assertEquals(delivered, sink.deliver(journal).position(), "a delivery that holds a position goes on");

            TestDatabase.execute(db, "UPDATE weir_offsets SET output_position = -1, source_offset = -1 WHERE journal_id = '" + journal.id() + "'");
            final List<String> rows = TestDatabase.rows(db, "SELECT count(*) FROM " + table);
            final SinkRefusedException refused = assertThrows(SinkRefusedException.class, () -> sink.deliver(journal));
            assertTrue(refused.getMessage().contains("the database holds no delivery of journal " + journal.id() + " into " + table
                + ", but retention removed the oldest 25 results of pipeline default's output journal (output positions before "
                + JournalCycles.results(pipeline).oldestOffset() + "; archive " + archive + "): a delivery from its start would miss them"),
                refused.getMessage());
            assertEquals(rows, TestDatabase.rows(db, "SELECT count(*) FROM " + table), "nothing delivered");

            final long before = JournalCycles.results(pipeline).oldestOffset() - 1;
            TestDatabase.execute(db, "UPDATE weir_offsets SET output_position = " + before + " WHERE journal_id = '" + journal.id() + "'");
            final SinkRefusedException removed = assertThrows(SinkRefusedException.class, () -> sink.deliver(journal));
            assertTrue(removed.getMessage().contains("was delivered into " + table + " up to output position " + before + ", but retention "
                + "removed the output journal's outputs before " + (before + 1) + " (25 results of pipeline default; archive " + archive
                + "): the results after that position cannot be delivered"), removed.getMessage());
        }
    }

    private static JournalDirectory journal(final Path path, final int from, final int to)
    {
        try (EventJournal writer = EventJournal.openOrCreate(path))
        {
            for (int i = from; i < to; i++)
            {
                writer.append(i, i * 2L, "k" + (i % 30), i % 1_000);
            }
        }
        Weir.pipeline().journal(path).window(TumblingWindows.of(1_000)).checkpointEvery(500).build().runToEnd();
        return JournalDirectory.open(path);
    }
}
