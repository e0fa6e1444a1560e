package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thread names are unique per run and carry the pipeline's name; an application's thread factory makes the
 * threads, with the names it chooses from Weir's.
 */
class PipelineThreadsTest
{
    @TempDir
    Path dir;

    @Test
    void twoPipelinesOfOneNameOnTwoJournalsHaveDistinctThreadNames() throws Exception
    {
        final Set<String> first = ConcurrentHashMap.newKeySet();
        final Set<String> second = ConcurrentHashMap.newKeySet();
        try (Pipeline a = following(journal("a"), first).build().start();
             Pipeline b = following(journal("b"), second).build().start())
        {
            assertTrue(a.awaitOffset(0, 30, TimeUnit.SECONDS));
            assertTrue(b.awaitOffset(0, 30, TimeUnit.SECONDS));
            assertEquals(1, first.size(), "one stage thread: " + first);
            assertEquals(1, second.size(), "one stage thread: " + second);
            final String one = first.iterator().next();
            final String two = second.iterator().next();
            assertNotEquals(one, two);
            assertTrue(one.matches("weir-orders-\\d+-stage-0"), one);
            assertTrue(two.matches("weir-orders-\\d+-stage-0"), two);
        }
    }

    @Test
    void theApplicationsThreadFactoryMakesEveryThread() throws Exception
    {
        final List<Thread> made = new CopyOnWriteArrayList<>();
        final Set<String> applying = ConcurrentHashMap.newKeySet();
        try (Pipeline pipeline = following(journal("c"), applying)
            .layout(PipelineLayout.FUSED)
            .threadFactory(task ->
            {
                final Thread thread = new Thread(task, "svc-" + task);
                thread.setDaemon(true);
                thread.setPriority(Thread.MAX_PRIORITY);
                made.add(thread);
                return thread;
            })
            .build()
            .start())
        {
            assertTrue(pipeline.awaitOffset(0, 30, TimeUnit.SECONDS));
            assertEquals(3, made.size(), "the latency sampler, a stage thread and a publisher thread: " + made);
            assertTrue(made.get(0).getName().matches("svc-weir-orders-\\d+-metrics"), made.get(0).getName());
            assertTrue(made.get(1).getName().matches("svc-weir-orders-\\d+-stage-0"), made.get(1).getName());
            assertTrue(made.get(2).getName().matches("svc-weir-orders-\\d+-publisher"), made.get(2).getName());
            assertEquals(Set.of(made.get(1).getName()), applying, "the factory's stage thread applies the events");
            assertEquals(Thread.MAX_PRIORITY, made.get(1).getPriority());
        }
        for (final Thread thread : made)
        {
            assertTrue(!thread.isAlive(), "stopping ends " + thread.getName());
        }
    }

    private static PipelineBuilder following(final Path journal, final Set<String> applying)
    {
        return Weir.pipeline().journal(journal).pipeline("orders").window(TumblingWindows.of(1_000))
            .onApplied(offset -> applying.add(Thread.currentThread().getName()));
    }

    private Path journal(final String name)
    {
        final Path journal = dir.resolve(name);
        try (EventJournal events = EventJournal.openOrCreate(journal))
        {
            events.append(1, 0, "k", 1);
        }
        return journal;
    }
}
