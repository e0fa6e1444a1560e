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
        long allocated;
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
            final long before = threads.getThreadAllocatedBytes(thread);
            for (int i = EVENTS / 2; i < EVENTS; i++)
            {
                offset = pipeline.append(i, i, keys[i % keys.length], i);
            }
            allocated = threads.getThreadAllocatedBytes(thread) - before;
            assertTrue(pipeline.awaitOffset(offset, 60, TimeUnit.SECONDS));
            assertEquals(EVENTS, pipeline.processedEvents());
        }
        assertTrue(allocated < 10_000, "bytes allocated by 100,000 appends: " + allocated);
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
