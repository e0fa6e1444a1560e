package dev.weir.engine.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.weir.engine.RunSummary;
import dev.weir.engine.Weir;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.schema.NewerFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link EngineStat} and {@link NewestCheckpoint} read the files a real run left: its counters by kind, its
 * histograms, its newest checkpoint; a pipeline that never ran reads as nothing, and a metrics file of a newer Weir is
 * refused.
 */
class EngineStatTest
{
    @TempDir
    Path dir;

    @Test
    void aFinishedRunsCountersHistogramsAndCheckpointAreRead()
    {
        final long last = fill(dir.resolve("j"), 200);
        final RunSummary summary = Weir.pipeline().journal(dir.resolve("j")).pipeline("spend").window(TumblingWindows.of(100)).build().runToEnd();
        final JournalDirectory spend = JournalDirectory.open(dir.resolve("j")).pipeline("spend");

        assertEquals(List.of("spend"), EngineStat.pipelinesWithMetrics(JournalDirectory.open(dir.resolve("j"))).stream().map(JournalDirectory::pipelineName).toList());
        final EngineStat stat = EngineStat.read(spend);
        assertFalse(stat.running(), "the run marked its end");
        assertEquals(ProcessHandle.current().pid(), stat.pid());
        assertEquals(last, stat.value(EngineStat.Kind.OFFSET_APPLIED));
        assertTrue(stat.counters().contains(new EngineStat.Counter("events applied", 200, EngineStat.Kind.VALUE)), stat.counters().toString());
        assertTrue(stat.counters().stream().anyMatch(c -> c.kind() == EngineStat.Kind.LAST_EVENT_READ && c.value() > 0), stat.counters().toString());
        assertEquals(List.of("read-to-applied", "fire-to-listener"), stat.histograms().stream().map(EngineStat.Histogram::name).toList());
        assertTrue(stat.histograms().get(0).count() > 0, stat.histograms().toString());

        final CheckpointSummary checkpoint = NewestCheckpoint.read(spend).newest().orElseThrow();
        assertEquals(last, checkpoint.coverage().sourceOffset());
        assertEquals(200, checkpoint.counts().events());
        assertEquals(summary.windowsFired(), checkpoint.counts().windowsFired());
        assertEquals(checkpoint.coverage(), NewestCheckpoint.coverage(spend).orElseThrow());
    }

    @Test
    void aPipelineThatNeverRanHasNoCheckpointAndNoMetricsAndNothingIsCreated()
    {
        fill(dir.resolve("j"), 10);
        final JournalDirectory journal = JournalDirectory.open(dir.resolve("j"));
        assertEquals(new NewestCheckpoint(java.util.Optional.empty(), 0), NewestCheckpoint.read(journal));
        assertTrue(NewestCheckpoint.coverage(journal).isEmpty());
        assertFalse(Files.exists(journal.checkpoints()), "reading creates no checkpoint directory");
        assertEquals(List.of(), EngineStat.pipelinesWithMetrics(journal));
        assertThrows(IllegalStateException.class, () -> EngineStat.read(journal));
    }

    @Test
    void aMetricsFileOfANewerWeirIsRefused() throws IOException
    {
        fill(dir.resolve("j"), 10);
        Weir.pipeline().journal(dir.resolve("j")).window(TumblingWindows.of(100)).build().runToEnd();
        final Path file = JournalDirectory.open(dir.resolve("j")).metricsFile();
        final byte[] bytes = Files.readAllBytes(file);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(4, 2);
        Files.write(file, bytes);
        assertEquals(2, assertThrows(NewerFormatException.class, () -> EngineStat.read(file)).found());
    }

    private static long fill(final Path journal, final int count)
    {
        long last = -1;
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            for (int i = 0; i < count; i++)
            {
                last = writer.append(i, i, "k" + (i % 13), i);
            }
        }
        return last;
    }
}
