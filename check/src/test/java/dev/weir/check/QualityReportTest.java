package dev.weir.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import dev.weir.engine.Weir;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link QualityReport} runs the {@code late} check once per pipeline of a journal, or for the one asked for, and
 * counts the checks that failed: a journal no pipeline processed fails.
 */
class QualityReportTest
{
    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    @TempDir
    Path dir;

    @Test
    void theLateCheckRunsPerPipelineAndAJournalNoPipelineProcessedFails()
    {
        try (EventJournal writer = EventJournal.openOrCreate(dir.resolve("j")))
        {
            for (int i = 0; i < 100; i++)
            {
                writer.append(i, 1_000L * i, "k" + i % 3, i);
            }
        }
        final JournalDirectory journal = JournalDirectory.open(dir.resolve("j"));
        final QualityReport unprocessed = QualityReport.of(journal, null, null, QualityThresholds.DEFAULTS, NOW);
        assertEquals(1, unprocessed.failed(), unprocessed.checks().toString());
        assertTrue(unprocessed.partitions().isEmpty());

        Weir.pipeline().journal(journal.root()).pipeline("spend").window(TumblingWindows.of(10_000)).build().runToEnd();
        Weir.pipeline().journal(journal.root()).pipeline("fees").window(TumblingWindows.of(10_000)).build().runToEnd();
        final QualityReport every = QualityReport.of(journal, null, null, QualityThresholds.DEFAULTS, NOW);
        assertEquals(0, every.failed(), every.checks().toString());
        assertEquals(List.of("late:fees", "late:spend"), lateRows(every));
        assertEquals(List.of("late:spend"), lateRows(QualityReport.of(journal, "spend", null, QualityThresholds.DEFAULTS, NOW)));
    }

    private static List<String> lateRows(final QualityReport report)
    {
        return report.checks().stream().map(QualityCheck::name).filter(name -> name.startsWith("late")).toList();
    }
}
