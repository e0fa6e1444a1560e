package dev.weir.engine.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.Pipeline;
import dev.weir.engine.RunSummary;
import dev.weir.engine.Weir;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pipeline with durable outputs publishes its live counters in the journal's metrics file, while it
 * runs and with its last values after it ends; a replay writes none.
 */
class PipelineMetricsTest
{
    @TempDir
    Path dir;

    @Test
    void aFollowingPipelinePublishesWhileItRunsAndABoundedOneLeavesItsLastValues() throws Exception
    {
        final Path journal = dir.resolve("journal");
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            // before the events: read (and counted) before the last event is applied
            writer.appendRejected(7, "not a 64-bit integer", "x,y,z,w");
            writer.appendRejected(8, "empty line", "");
        }
        long last = fill(journal, 0, 5_000);
        final Path file = JournalDirectory.open(journal).metricsFile();
        final Map<String, Long> live;
        try (Pipeline following = Weir.pipeline().journal(journal).window(TumblingWindows.of(100)).outOfOrderness(10).build().start())
        {
            assertTrue(following.awaitOffset(last, 120, TimeUnit.SECONDS));
            live = read(file);
            assertEquals(5_000L, live.get("events applied"));
            assertEquals(last, live.get("journal offset applied"));
            assertEquals(2L, live.get("rejected input lines read (this run)"));
            assertTrue(live.get("windows open") > 0, "the last windows are still open: " + live);
            assertEquals(live.get("windows fired"), live.get("outputs written (results and late events)"));
        }
        last = fill(journal, 5_000, 1_000);
        final RunSummary summary = Weir.pipeline().journal(journal).window(TumblingWindows.of(100)).outOfOrderness(10).build().runToEnd();
        final Map<String, Long> after = read(file);
        assertEquals(6_000L, after.get("events applied"), "the total, across the restart");
        assertEquals(0L, after.get("windows open"));
        assertEquals(Long.MAX_VALUE, after.get("watermark (epoch ms)"));
        assertEquals(last, after.get("journal offset of the last checkpoint"));
        assertEquals(summary.checkpoints(), after.get("checkpoints taken"));
        // counters of the state are totals (restored from the checkpoint); outputs are this run's
        assertEquals(summary.windowsFired(), after.get("windows fired"));
        assertEquals(after.get("windows fired") - live.get("windows fired"), after.get("outputs written (results and late events)"));
    }

    @Test
    void aReplayWritesNoMetricsFile() throws IOException
    {
        final Path journal = dir.resolve("replayed");
        fill(journal, 0, 100);
        Weir.pipeline().journal(journal).window(TumblingWindows.of(100)).replayRange(-1, Long.MAX_VALUE).build().runToEnd();
        assertFalse(Files.exists(JournalDirectory.open(journal).metricsFile()));
    }

    private static long fill(final Path journal, final int first, final int count) throws IOException
    {
        long last = -1;
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            for (int i = first; i < first + count; i++)
            {
                last = writer.append(i, i, "k" + (i % 13), i);
            }
        }
        return last;
    }

    private static Map<String, Long> read(final Path file)
    {
        final Map<String, Long> values = new HashMap<>();
        try (MetricsFile metrics = MetricsFile.open(file))
        {
            metrics.reader().forEach((id, label) -> values.put(label, metrics.reader().getCounterValue(id)));
        }
        return values;
    }
}
