package dev.weir.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import dev.weir.engine.Weir;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalCycles;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.retention.OutputHistory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A service writes a pipeline's results and late events from its output journal through the Java API, without
 * the command line: one results CSV and a late-events CSV, or date partitions, with the rows the pipeline emitted,
 * the same bytes when written again; columns that are not in the journal are refused before any file is written.
 */
class ResultFilesTest
{
    private static final long DAY = 86_400_000L;
    private static final RowColumns COLUMNS = new RowColumns("key", "value", List.of());

    @TempDir
    Path dir;

    private Path journal;

    @BeforeEach
    void runAPipeline()
    {
        journal = dir.resolve("journal");
        try (EventJournal events = EventJournal.openOrCreate(journal))
        {
            events.append(1, 1_000, events.keyId("card-1"), 250);
            events.append(2, DAY + 1_000, events.keyId("card-2"), 400);
            events.append(3, 2_000, events.keyId("card-1"), 99); // the first day's window has fired: late
        }
        Weir.pipeline().journal(journal).window(TumblingWindows.of(10_000)).outOfOrderness(0).allowedLateness(0)
            .latePolicy(LatePolicy.SIDE).build().runToEnd();
    }

    @Test
    void aResultsFileAndALateFileHoldTheOutputJournalsRows() throws IOException
    {
        final Path results = dir.resolve("results.csv");
        final Path late = dir.resolve("late.csv");
        final ExportCounts written = ResultFiles.of(journal, JournalDirectory.DEFAULT_PIPELINE).columns(COLUMNS).results(results).late(late)
            .build().export();

        assertEquals(new ExportCounts(2, 1, 1, 0), written);
        assertEquals(List.of(ResultRow.HEADER, "0,10000,card-1,1,250,250,250,0", DAY + "," + (DAY + 10_000) + ",card-2,1,400,400,400,0"),
            Files.readAllLines(results));
        assertEquals(List.of("event_id,event_time,key,value", "3,2000,card-1,99"), Files.readAllLines(late));

        final byte[] first = Files.readAllBytes(results);
        ResultFiles.of(journal, JournalDirectory.DEFAULT_PIPELINE).columns(COLUMNS).results(results).build().export();
        assertArrayEquals(first, Files.readAllBytes(results), "written again: the same bytes");
    }

    @Test
    void datePartitionsHoldEachDaysRows() throws IOException
    {
        final Path out = dir.resolve("out");
        final ExportCounts written = ResultFiles.of(JournalDirectory.open(journal)).columns(COLUMNS)
            .partitions(out, PartitionedResults.Format.jsonl).build().export();

        assertEquals(new ExportCounts(2, 1, 2, 0), written);
        assertEquals(List.of("{\"window_start\":0,\"window_end\":10000,\"key\":\"card-1\",\"count\":1,\"sum\":250,\"min\":250,\"max\":250,\"version\":0}"),
            Files.readAllLines(out.resolve("date=1970-01-01/results.jsonl")));
        assertEquals(List.of("{\"window_start\":" + DAY + ",\"window_end\":" + (DAY + 10_000)
                + ",\"key\":\"card-2\",\"count\":1,\"sum\":400,\"min\":400,\"max\":400,\"version\":0}"),
            Files.readAllLines(out.resolve("date=1970-01-02/results.jsonl")));
    }

    @Test
    void columnsNotInTheJournalAreRefusedBeforeAnyFileIsWritten()
    {
        final Path results = dir.resolve("results.csv");
        final ResultFiles export = ResultFiles.of(journal, JournalDirectory.DEFAULT_PIPELINE)
            .columns(new RowColumns("merchant", "value", List.of())).results(results).build();

        final ExportRefusedException refused = assertThrows(ExportRefusedException.class, export::export);
        assertTrue(refused.getMessage().contains("merchant"), refused.getMessage());
        assertTrue(Files.notExists(results), "no file written");
    }

    @Test
    void onceRetentionRemovedOutputsAResultsOrLateFileIsRefusedAndPartitionsAreNot()
    {
        final ResultFiles results = ResultFiles.of(journal, JournalDirectory.DEFAULT_PIPELINE).columns(COLUMNS).results(dir.resolve("r.csv"))
            .build();
        results.requireComplete(); // nothing removed yet
        final JournalDirectory directory = JournalDirectory.open(journal);
        final JournalDirectory pipeline = directory.pipeline(JournalDirectory.DEFAULT_PIPELINE);
        new OutputHistory(directory.id(), JournalCycles.results(pipeline).oldestOffset(), 2, 1, 4_096, 0, null, Instant.now()).write(pipeline);

        final ExportRefusedException refused = assertThrows(ExportRefusedException.class, results::requireComplete);
        assertEquals("retention removed the oldest 1 results and 1 late events of pipeline default's output journal (deleted, not archived): "
            + "a results file would miss them; use --output-dir (whole days after 1970-01-01 are rewritten), --jdbc-url, or 'weir replay'",
            refused.getMessage());
        final ResultFiles late = ResultFiles.of(pipeline).columns(COLUMNS).partitions(dir.resolve("out"), PartitionedResults.Format.csv)
            .late(dir.resolve("late.csv")).build();
        assertTrue(assertThrows(ExportRefusedException.class, late::requireComplete).getMessage().contains("a --late-output file would miss"));
        ResultFiles.of(pipeline).columns(COLUMNS).partitions(dir.resolve("out"), PartitionedResults.Format.csv).build().requireComplete();
    }

    @Test
    void anExportNeedsColumnsAndOneKindOfResultsFile()
    {
        assertThrows(IllegalArgumentException.class, () -> ResultFiles.of(journal, JournalDirectory.DEFAULT_PIPELINE).results(dir.resolve("r.csv")).build());
        assertThrows(IllegalArgumentException.class, () -> ResultFiles.of(journal, JournalDirectory.DEFAULT_PIPELINE).columns(COLUMNS)
            .results(dir.resolve("r.csv")).partitions(dir.resolve("out"), PartitionedResults.Format.csv).build());
    }
}
