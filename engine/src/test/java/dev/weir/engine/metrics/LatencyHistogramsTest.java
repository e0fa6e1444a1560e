package dev.weir.engine.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.Pipeline;
import dev.weir.engine.Weir;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine's latency histograms record while a pipeline runs, are published about once a second to the
 * metrics file and the in-process view, and hold their final values once the run ends.
 */
class LatencyHistogramsTest
{
    @TempDir
    Path dir;

    @Test
    void aFollowingPipelineRecordsBothLatencies() throws Exception
    {
        final Path journal = dir.resolve("journal");
        final long last = fill(journal, 20_000);
        final PipelineMetrics metrics;
        try (Pipeline pipeline = Weir.pipeline().journal(journal).window(TumblingWindows.of(100)).outOfOrderness(10).build().start())
        {
            assertTrue(pipeline.awaitOffset(last, 120, TimeUnit.SECONDS));
            metrics = pipeline.metrics();
            // The sampler publishes both histograms about once a second, while the run goes on. One sample can
            // see a firing pass before the end of the ring batch that holds it: wait for both, not one.
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while ((metrics.histogram(CounterTypes.READ_TO_APPLIED).count() == 0
                || metrics.histogram(CounterTypes.FIRE_TO_LISTENER).count() == 0) && System.nanoTime() < deadline)
            {
                Thread.sleep(50);
            }
            assertSane(metrics.histogram(CounterTypes.READ_TO_APPLIED));
            assertSane(metrics.histogram(CounterTypes.FIRE_TO_LISTENER));
        }
        final PipelineMetrics.LatencySnapshot fired = metrics.histogram(CounterTypes.FIRE_TO_LISTENER);
        assertSane(fired);
        // 13 keys: a watermark advance fires a window of each
        assertTrue(fired.count() < metrics.value(CounterTypes.WINDOWS_FIRED), "one record per firing pass, not per result: " + fired);
        try (MetricsFile file = MetricsFile.open(JournalDirectory.open(journal).metricsFile()))
        {
            assertEquals(fired.count(), file.value(CounterTypes.FIRE_TO_LISTENER + CounterTypes.COUNT), "the file has the final values");
            assertEquals(fired.max(), file.value(CounterTypes.FIRE_TO_LISTENER + CounterTypes.MAX));
        }
    }

    @Test
    void aReplayKeepsItsLatenciesInMemory() throws Exception
    {
        final Path journal = dir.resolve("replayed");
        fill(journal, 5_000);
        final Pipeline replay = Weir.pipeline().journal(journal).window(TumblingWindows.of(100)).replayRange(-1, Long.MAX_VALUE).build();
        replay.runToEnd();
        assertSane(replay.metrics().histogram(CounterTypes.READ_TO_APPLIED));
        assertSane(replay.metrics().histogram(CounterTypes.FIRE_TO_LISTENER));
        assertEquals(5_000, replay.metrics().value(CounterTypes.EVENTS_APPLIED));
    }

    private static void assertSane(final PipelineMetrics.LatencySnapshot latency)
    {
        assertTrue(latency.count() > 0, "recorded: " + latency);
        assertTrue(latency.p50() <= latency.p90() && latency.p90() <= latency.p99() && latency.p99() <= latency.p999()
            && latency.p999() <= latency.max(), "ordered: " + latency);
        assertTrue(latency.max() > 0 && latency.max() <= LatencyHistogram.HIGHEST_NANOS, "in range: " + latency);
    }

    private static long fill(final Path journal, final int count) throws IOException
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
