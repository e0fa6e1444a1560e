package dev.weir.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.Pipeline;
import dev.weir.engine.Weir;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The binder registers a pipeline's counters and latency histograms, tagged with the pipeline and journal,
 * and the meters move as the pipeline processes events.
 */
class WeirMetricsTest
{
    @TempDir
    Path dir;

    @Test
    void theMetersFollowTheRunningPipeline() throws Exception
    {
        final Path journal = dir.resolve("journal");
        EventJournal.openOrCreate(journal).close();
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Pipeline pipeline = Weir.pipeline().journal(journal).window(TumblingWindows.of(100)).outOfOrderness(10).build().start())
        {
            WeirMetrics.of(pipeline).bindTo(registry);
            assertEquals(0.0, applied(registry), "nothing applied yet");
            final long last = append(pipeline, 10_000);
            assertTrue(pipeline.awaitOffset(last, 120, TimeUnit.SECONDS));
            assertEquals(10_000.0, applied(registry));
            assertTrue(registry.get("weir.windows.fired").functionCounter().count() > 0);
            assertEquals((double)last, registry.get("weir.journal.offset.applied").gauge().value());
            // Both are published about once a second; one sample can hold a firing pass before the end of its
            // ring batch, so wait for both.
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while ((latencyCount(registry, "read-to-applied") == 0 || latencyCount(registry, "fire-to-listener") == 0)
                && System.nanoTime() < deadline)
            {
                Thread.sleep(50);
            }
            for (final String latency : new String[] {"read-to-applied", "fire-to-listener"})
            {
                assertTrue(latencyCount(registry, latency) > 0, latency);
                final double p50 = quantile(registry, latency, "0.5");
                final double p99 = quantile(registry, latency, "0.99");
                final double max = registry.get("weir.latency.max").tag("latency", latency).gauge().value();
                assertTrue(p50 > 0 && p50 <= p99 && p99 <= max && max < 60, latency + ": " + p50 + " " + p99 + " " + max);
            }
        }
        final Gauge open = registry.get("weir.windows.open").tag("pipeline", "default").tag("journal", journal.toString()).gauge();
        assertTrue(open.value() >= 0, "tagged, and readable after the run: " + open.value());
        assertEquals(10_000.0, applied(registry), "the last values stay");
        assertTrue(Double.isNaN(registry.get("weir.retention.steps").functionCounter().count()), "no retention: not published");
        assertEquals(0.0, registry.get("weir.values.wrapped").functionCounter().count(), "published: none wrapped");
        assertEquals(0.0, registry.get("weir.sums.wrapped").functionCounter().count(), "published: none wrapped");
    }

    @Test
    void aFollowingRunsRetentionIsBound() throws Exception
    {
        final Path journal = dir.resolve("retained");
        EventJournal.openOrCreate(journal).close();
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Pipeline pipeline = Weir.pipeline().journal(journal).window(TumblingWindows.of(100)).retention(java.time.Duration.ofDays(1), null)
            .build().start())
        {
            WeirMetrics.of(pipeline).bindTo(registry);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!(registry.get("weir.retention.steps").functionCounter().count() >= 1) && System.nanoTime() < deadline)
            {
                Thread.sleep(50); // a step runs as the run starts, on the retention thread
            }
            assertTrue(registry.get("weir.retention.steps").functionCounter().count() >= 1, "the first step is counted");
            assertEquals(0.0, registry.get("weir.retention.failures").functionCounter().count());
            assertEquals(0.0, registry.get("weir.retention.cycles.removed").functionCounter().count(), "nothing is a day old");
            assertTrue(Double.isNaN(registry.get("weir.retention.events.floor").gauge().value())
                || registry.get("weir.retention.events.floor").gauge().value() >= 0, "a floor, or nothing held");
        }
    }

    private static double applied(final SimpleMeterRegistry registry)
    {
        return registry.get("weir.events.applied").functionCounter().count();
    }

    private static double latencyCount(final SimpleMeterRegistry registry, final String latency)
    {
        return registry.get("weir.latency.count").tag("latency", latency).functionCounter().count();
    }

    private static double quantile(final SimpleMeterRegistry registry, final String latency, final String quantile)
    {
        return registry.get("weir.latency").tag("latency", latency).tag("quantile", quantile).gauge().value();
    }

    private static long append(final Pipeline pipeline, final int count) throws IOException
    {
        long last = -1;
        for (int i = 0; i < count; i++)
        {
            last = pipeline.append(i, i, "k" + (i % 13), i);
        }
        return last;
    }
}
