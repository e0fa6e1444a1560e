package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;

import dev.weir.engine.source.RunFailure;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thread names are unique per run and carry the pipeline's name; an application's thread factory makes the
 * threads, with the names it chooses from Weir's: every thread a run starts, the background agents too (the
 * checkpoint writer, the latency sampler, retention and idle heartbeats), and a failure of the checkpoint
 * writer reaches the failure listener from its thread.
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
            assertTrue(a.awaitOffset(0, 120, TimeUnit.SECONDS));
            assertTrue(b.awaitOffset(0, 120, TimeUnit.SECONDS));
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
    void aBackgroundAgentRunsOnAThreadOfTheApplicationsFactoryAndReportsItsErrors() throws Exception
    {
        final List<Thread> made = new CopyOnWriteArrayList<>();
        final ThreadFactory factory = task ->
        {
            final Thread thread = new Thread(task, "svc-" + task);
            made.add(thread);
            return thread;
        };
        final AtomicReference<Throwable> runFailure = new AtomicReference<>();
        final RunFailure run = new RunFailure()
        {
            @Override
            public void fail(final Throwable cause)
            {
                runFailure.compareAndSet(null, cause);
            }

            @Override
            public Throwable failure()
            {
                return runFailure.get();
            }
        };
        final PipelineThreads threads = new PipelineThreads("orders", factory, CpuPinning.NONE, run);
        final CountDownLatch failed = new CountDownLatch(1);
        final AtomicReference<Throwable> reported = new AtomicReference<>();
        final AtomicReference<Thread> ranOn = new AtomicReference<>();
        final Agent agent = new Agent()
        {
            @Override
            public int doWork()
            {
                ranOn.set(Thread.currentThread());
                throw new IllegalStateException("the database is down");
            }

            @Override
            public String roleName()
            {
                return "delivery";
            }
        };
        try (AgentRunner runner = threads.startAgent("delivery", agent, new BackoffIdleStrategy(), ex ->
        {
            reported.compareAndSet(null, ex);
            failed.countDown();
        }))
        {
            assertTrue(failed.await(60, TimeUnit.SECONDS), "the agent's error is reported");
            assertEquals("the database is down", reported.get().getMessage());
            assertEquals(1, made.size());
            assertSame(made.get(0), ranOn.get());
            assertTrue(made.get(0).getName().matches("svc-weir-orders-\\d+-delivery"), made.get(0).getName());
        }
        assertEquals(null, runFailure.get(), "an error the agent's handler took is not the run's failure");
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
            assertTrue(pipeline.awaitOffset(0, 120, TimeUnit.SECONDS));
            // the checkpoint writer's thread is made with its first periodic checkpoint (none here): see the tests below
            assertEquals(3, made.size(), "the latency sampler, a stage thread and a publisher thread: " + made);
            assertTrue(made.get(0).getName().matches("svc-weir-orders-\\d+-metrics"), made.get(0).getName());
            assertTrue(made.get(1).getName().matches("svc-weir-orders-\\d+-stage-0"), made.get(1).getName());
            assertTrue(made.get(2).getName().matches("svc-weir-orders-\\d+-publisher"), made.get(2).getName());
            assertEquals(Set.of(made.get(1).getName()), applying, "the factory's stage thread applies the events");
            assertEquals(Thread.MAX_PRIORITY, made.get(1).getPriority());
        }
        assertEnded(made);
    }

    @Test
    void everyThreadOfAFollowingRunWithCheckpointsRetentionAndHeartbeatsComesFromTheFactory() throws Exception
    {
        final ThreadGroup group = new ThreadGroup("svc");
        final List<Thread> made = new CopyOnWriteArrayList<>();
        final Set<Thread> checkpointedOn = ConcurrentHashMap.newKeySet();
        final CountDownLatch checkpointed = new CountDownLatch(1);
        final Path journal = journal("d");
        try (Pipeline pipeline = following(journal, ConcurrentHashMap.newKeySet())
            .checkpointEvery(10)
            .retention(Duration.ofDays(1), null)
            .idleTimeout(Duration.ofMillis(100))
            .onCheckpoint((sequence, payload) ->
            {
                checkpointedOn.add(Thread.currentThread());
                checkpointed.countDown();
            })
            .threadFactory(recording(group, made))
            .build()
            .start())
        {
            long last = 0;
            for (int i = 1; i <= 30; i++)
            {
                last = pipeline.append(i, i, "k", i);
            }
            assertTrue(pipeline.awaitOffset(last, 120, TimeUnit.SECONDS));
            assertTrue(checkpointed.await(120, TimeUnit.SECONDS), "a periodic checkpoint is written");
            assertMadeByTheFactory(group, made);
            assertMade(made, "checkpoint");
            assertMade(made, "retention");
            assertMade(made, "heartbeats");
            assertMade(made, "metrics");
            assertTrue(made.containsAll(checkpointedOn), "periodic checkpoints are written on the factory's threads: " + checkpointedOn);
        }
        assertEnded(made);
    }

    @Test
    void everyThreadOfABoundedRunWithCheckpointsComesFromTheFactory() throws Exception
    {
        final ThreadGroup group = new ThreadGroup("svc");
        final List<Thread> made = new CopyOnWriteArrayList<>();
        final Set<Thread> checkpointedOn = ConcurrentHashMap.newKeySet();
        final Path journal = journal("e");
        try (EventJournal events = EventJournal.openOrCreate(journal))
        {
            for (int i = 1; i <= 100; i++)
            {
                events.append(i, i, "k" + i % 3, i);
            }
        }
        try (Pipeline pipeline = following(journal, ConcurrentHashMap.newKeySet())
            .checkpointEvery(10)
            .onCheckpoint((sequence, payload) -> checkpointedOn.add(Thread.currentThread()))
            .threadFactory(recording(group, made))
            .build())
        {
            pipeline.runToEnd();
        }
        assertMadeByTheFactory(group, made);
        assertMade(made, "checkpoint");
        assertTrue(made.containsAll(checkpointedOn), "every checkpoint is written on the factory's threads: " + checkpointedOn);
        assertEnded(made);
    }

    @Test
    void aFailedCheckpointWriteReachesTheFailureListenerFromTheFactorysThread() throws Exception
    {
        final List<Thread> made = new CopyOnWriteArrayList<>();
        final CountDownLatch failed = new CountDownLatch(1);
        final AtomicReference<Throwable> told = new AtomicReference<>();
        final AtomicReference<Thread> toldOn = new AtomicReference<>();
        final Path journal = journal("f");
        final Pipeline pipeline = following(journal, ConcurrentHashMap.newKeySet())
            .checkpointEvery(100)
            .onFailure(cause ->
            {
                told.set(cause);
                toldOn.set(Thread.currentThread());
                failed.countDown();
            })
            .threadFactory(recording(new ThreadGroup("svc"), made))
            .build()
            .start();
        try
        {
            assertTrue(pipeline.awaitOffset(0, 120, TimeUnit.SECONDS));
            breakCheckpoints(journal);
            for (int i = 1; i < 150; i++)
            {
                pipeline.append(i, i, "k", i); // the 100th event makes one checkpoint due; the engine would see its failure only at the 200th
            }
            assertTrue(failed.await(120, TimeUnit.SECONDS), "the failed write reaches the failure listener");
            assertTrue(String.valueOf(told.get()).contains("writing a checkpoint failed"), String.valueOf(told.get()));
            assertTrue(made.contains(toldOn.get()), "told on a thread of the factory's: " + toldOn.get() + " of " + made);
            assertTrue(toldOn.get().getName().matches("svc-weir-orders-\\d+-checkpoint"), toldOn.get().getName());
            final PipelineFailedException stopped = assertThrows(PipelineFailedException.class, pipeline::stop);
            assertSame(told.get(), stopped.getCause(), "stop throws the failure the listener was told of");
        }
        finally
        {
            try
            {
                pipeline.close();
            }
            catch (final PipelineFailedException alreadyReported)
            {
                // an assertion above failed first: keep its message
            }
        }
    }

    /** An application's factory: daemon threads in its own group, named {@code svc-<Weir's name>}, each recorded. */
    private static ThreadFactory recording(final ThreadGroup group, final List<Thread> made)
    {
        return task ->
        {
            final Thread thread = new Thread(group, task, "svc-" + task);
            thread.setDaemon(true);
            made.add(thread);
            return thread;
        };
    }

    /** Every live thread of the factory's group (where threads started from its threads land) is one it made, named by Weir's scheme. */
    private static void assertMadeByTheFactory(final ThreadGroup group, final List<Thread> made)
    {
        final Thread[] live = new Thread[group.activeCount() + 16];
        final int count = group.enumerate(live);
        for (int i = 0; i < count; i++)
        {
            assertTrue(made.contains(live[i]), "a thread the factory did not make: " + live[i].getName() + "; made " + made);
        }
        for (final Thread thread : made)
        {
            assertTrue(thread.getName().matches("svc-weir-orders-\\d+-(stage-\\d+|publisher|metrics|retention|heartbeats|checkpoint)"), thread.getName());
        }
    }

    private static void assertMade(final List<Thread> made, final String job)
    {
        assertTrue(made.stream().anyMatch(t -> t.getName().matches("svc-weir-orders-\\d+-" + job)), "the factory made the " + job + " thread: " + made);
    }

    /** Every thread the factory made has ended once the run is over. */
    private static void assertEnded(final List<Thread> made)
    {
        for (final Thread thread : made)
        {
            assertTrue(!thread.isAlive(), "the end of the run ends " + thread.getName());
        }
    }

    /** The fault: the checkpoints directory replaced by a plain file, so a due checkpoint cannot be written. */
    private static void breakCheckpoints(final Path journal) throws IOException
    {
        final Path checkpoints = JournalDirectory.open(journal).pipeline("orders").checkpoints();
        if (Files.exists(checkpoints))
        {
            Files.move(checkpoints, checkpoints.resolveSibling("checkpoints.moved"), StandardCopyOption.ATOMIC_MOVE);
        }
        Files.writeString(checkpoints, "not a directory\n");
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
