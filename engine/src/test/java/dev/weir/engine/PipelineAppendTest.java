package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.emit.WindowResult;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.journal.EventJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An in-process producer appends through the pipeline's handle while it follows the journal: the
 * events are processed as they come, the appends allocate nothing per event, and a restart gives the
 * results of a clean run over the same events.
 */
class PipelineAppendTest
{
    private static final int EVENTS = 200_000;

    @TempDir
    Path dir;

    @Test
    void anInProcessProducerAppendsThroughThePipeline() throws Exception
    {
        final Path live = dir.resolve("live");
        EventJournal.openOrCreate(live).close();
        final List<String> results = new ArrayList<>();
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long thread = Thread.currentThread().getId();
        final long[] allocated = new long[10]; // per window of 10,000 appends
        try (Pipeline pipeline = builder(live).onResult(r -> results.add(row(r))).build().start())
        {
            final int[] keys = new int[50];
            for (int k = 0; k < keys.length; k++)
            {
                keys[k] = pipeline.keyId("card-" + k);
            }
            long offset = -1;
            for (int i = 0; i < EVENTS / 2; i++)
            {
                offset = pipeline.append(i, i, keys[i % keys.length], i);
            }
            for (int w = 0; w < allocated.length; w++)
            {
                final long before = threads.getThreadAllocatedBytes(thread);
                final int from = EVENTS / 2 + w * 10_000;
                for (int i = from; i < from + 10_000; i++)
                {
                    offset = pipeline.append(i, i, keys[i % keys.length], i);
                }
                allocated[w] = threads.getThreadAllocatedBytes(thread) - before;
            }
            assertTrue(pipeline.awaitOffset(offset, 60, TimeUnit.SECONDS));
            assertEquals(EVENTS, pipeline.processedEvents());
        }
        // allocation per append would show in every window (1 byte per append is 10,000 bytes a window); a
        // one-off allocation shows in one window only (29,784 bytes over 100,000 appends were seen once, in a
        // CI run on a loaded machine, and not reproduced): hold the median window to less than 0.1 byte per append
        // (an allocation recurring in fewer than half the windows, once per 20,000+ appends, would pass)
        final long[] sorted = allocated.clone();
        java.util.Arrays.sort(sorted);
        assertTrue(sorted[sorted.length / 2] < 1_000, "bytes allocated by each 10,000 appends: " + java.util.Arrays.toString(allocated));
        assertTrue(results.size() > 0, "windows fired while following");

        final Path clean = dir.resolve("clean");
        try (EventJournal writer = EventJournal.openOrCreate(clean))
        {
            for (int i = 0; i < EVENTS; i++)
            {
                writer.append(i, i, "card-" + (i % 50), i);
            }
        }
        final List<String> expected = new ArrayList<>();
        builder(clean).onResult(r -> expected.add(row(r))).build().runToEnd();
        builder(live).onResult(r -> results.add(row(r))).build().runToEnd();
        assertEquals(expected, results, "following with a restart gives the clean run's results, in its order");
    }

    private static String row(final WindowResult r)
    {
        return r.windowStart() + "," + r.windowEnd() + "," + r.keyId() + "," + r.count() + "," + r.sum() + "," + r.min() + "," + r.max()
            + "," + r.version();
    }

    private static PipelineBuilder builder(final Path journal)
    {
        return Weir.pipeline().journal(journal).window(SlidingWindows.of(1_000, 250)).outOfOrderness(50);
    }
}
