package dev.weir.engine.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.junit.jupiter.api.Test;

import dev.weir.journal.JournalDirectory;

/**
 * The continuous-delivery agent against a fake sink: the retry schedule on a fake clock (the test thread runs the
 * duty cycle), and the stop's grace on a runner thread whose deliveries are held by latches.
 */
class ContinuousDeliveryTest
{
    private static final long INTERVAL_MS = 1_000;
    private static final long LONG_WAIT_S = 120;

    private final AtomicLong nanos = new AtomicLong();
    private final Events events = new Events();

    @Test
    void failuresAreRetriedAfterABackoffThatDoublesUpToTheMaximumThenTheIntervalAgainAfterASuccess()
    {
        final ScriptedSink sink = new ScriptedSink();
        for (int i = 0; i < 7; i++)
        {
            sink.outcomes.add(ScriptedSink.UNAVAILABLE);
        }
        sink.outcomes.add(ScriptedSink.OK);
        sink.outcomes.add(ScriptedSink.OK);
        final ContinuousDelivery delivery = new ContinuousDelivery(sink, null, INTERVAL_MS, events, nanos::get, 1, 1);
        delivery.onStart();

        final List<Long> waits = new ArrayList<>();
        for (int attempt = 0; attempt < 9; attempt++)
        {
            final long waited = runUntilTheNextDelivery(delivery, sink);
            if (attempt > 0)
            {
                waits.add(waited);
            }
        }
        assertEquals(List.of(1_000L, 2_000L, 4_000L, 8_000L, 16_000L, 30_000L, 30_000L, 1_000L), waits,
            "waits between attempts: the interval after the first failure, doubled, at most 30 s, the interval after a success");
        assertEquals(List.of(1_000L, 2_000L, 4_000L, 8_000L, 16_000L, 30_000L, 30_000L), events.retries, "each retry is told with its backoff");
        assertNull(events.stopped);
    }

    @Test
    void aRefusalEndsTheDeliveryAndIsToldOnceWithNothingPendingReported()
    {
        final ScriptedSink sink = new ScriptedSink();
        final IllegalStateException refused = new IllegalStateException("table of another journal");
        sink.outcomes.add(() ->
        {
            throw refused;
        });
        final ContinuousDelivery delivery = new ContinuousDelivery(sink, null, INTERVAL_MS, events, nanos::get, 1, 1);
        delivery.onStart();

        assertThrows(AgentTerminationException.class, delivery::doWork);
        delivery.onClose();

        assertSame(refused, events.stopped);
        assertSame(refused, delivery.refusal());
        assertTrue(delivery.finish());
        assertEquals(1, sink.calls.get(), "no delivery after a refusal, not even at the stop");
        assertNull(events.pending);
    }

    @Test
    void theStopDeliversOnceMoreAndEndsTheAgent() throws Exception
    {
        final ScriptedSink sink = new ScriptedSink();
        final CountDownLatch first = new CountDownLatch(1);
        sink.outcomes.add(first::countDown);
        final ContinuousDelivery delivery = new ContinuousDelivery(sink, null, INTERVAL_MS, events, System::nanoTime,
            TimeUnit.SECONDS.toMillis(LONG_WAIT_S), 1);
        final AgentRunner runner = start(delivery);
        assertTrue(first.await(LONG_WAIT_S, TimeUnit.SECONDS), "the first delivery, at once");

        assertTrue(delivery.finish(), "the agent ended after its last delivery");
        runner.close();

        assertEquals(2, sink.calls.get(), "the first delivery and the stop's");
        assertNull(events.pending);
        assertTrue(events.retries.isEmpty());
    }

    @Test
    void aLastDeliveryThatFailsReportsWhatIsPendingWithTheTargetsReason() throws Exception
    {
        final ScriptedSink sink = new ScriptedSink();
        final CountDownLatch first = new CountDownLatch(1);
        sink.outcomes.add(first::countDown);
        sink.outcomes.add(ScriptedSink.UNAVAILABLE);
        sink.pending = 42;
        final ContinuousDelivery delivery = new ContinuousDelivery(sink, null, INTERVAL_MS, events, System::nanoTime,
            TimeUnit.SECONDS.toMillis(LONG_WAIT_S), 1);
        final AgentRunner runner = start(delivery);
        assertTrue(first.await(LONG_WAIT_S, TimeUnit.SECONDS));

        assertTrue(delivery.finish());
        runner.close();

        assertEquals(42, events.pending.results());
        assertEquals("connection refused", events.pending.reason());
        assertFalse(events.pending.abandoned());
        assertFalse(events.pending.atMost());
        assertTrue(events.retries.isEmpty(), "the stop's failure is reported as pending, not retried");
    }

    @Test
    void aDeliveryThatHangsPastTheGraceIsAbortedAndWhatIsPendingReported() throws Exception
    {
        final ScriptedSink sink = new ScriptedSink();
        final CountDownLatch hanging = new CountDownLatch(1);
        sink.outcomes.add(() ->
        {
            hanging.countDown();
            awaitQuietly(sink.aborted); // until abort() from the stopping thread
            throw new DeliveryUnavailableException("delivery failed", new SQLException("connection aborted"));
        });
        sink.held = OutputSink.UNKNOWN;
        final ContinuousDelivery delivery = new ContinuousDelivery(sink, null, INTERVAL_MS, events, System::nanoTime, 1,
            TimeUnit.SECONDS.toMillis(LONG_WAIT_S));
        final AgentRunner runner = start(delivery);
        assertTrue(hanging.await(LONG_WAIT_S, TimeUnit.SECONDS));

        assertTrue(delivery.finish(), "the aborted delivery failed, and the agent ended");
        runner.close();

        assertEquals(1, sink.calls.get(), "no last delivery after the abort");
        assertEquals("connection aborted", events.pending.reason());
        assertTrue(events.pending.atMost(), "never reached: every result is counted");
        assertFalse(events.pending.abandoned());
        assertTrue(events.retries.isEmpty(), "an aborted delivery is not retried");
    }

    @Test
    void anAgentStillBlockedAfterTheAbortIsAbandoned() throws Exception
    {
        final ScriptedSink sink = new ScriptedSink();
        final CountDownLatch hanging = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        sink.outcomes.add(() ->
        {
            hanging.countDown();
            awaitQuietly(release); // ignores abort(): a connect that does not answer
        });
        final ContinuousDelivery delivery = new ContinuousDelivery(sink, null, INTERVAL_MS, events, System::nanoTime, 1, 1);
        final AgentRunner runner = start(delivery);
        assertTrue(hanging.await(LONG_WAIT_S, TimeUnit.SECONDS));
        try
        {
            assertFalse(delivery.finish(), "abandoned");
            assertEquals(0, sink.aborted.getCount(), "the sink was aborted");
            assertTrue(events.pending.abandoned());
            assertTrue(events.pending.reason().startsWith("it did not answer within"), events.pending.reason());
            assertNull(events.pending.cause());
        }
        finally
        {
            release.countDown();
            runner.close();
        }
    }

    /** Run the duty cycle, moving the fake clock 1 ms at a time, until the sink is called; return the ms waited. */
    private long runUntilTheNextDelivery(final ContinuousDelivery delivery, final ScriptedSink sink)
    {
        final int before = sink.calls.get();
        final long start = nanos.get();
        while (delivery.doWork() == 0)
        {
            nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(1));
            assertTrue(nanos.get() - start <= TimeUnit.SECONDS.toNanos(60), "a delivery within a minute of the fake clock");
        }
        assertEquals(before + 1, sink.calls.get());
        return TimeUnit.NANOSECONDS.toMillis(nanos.get() - start);
    }

    private static AgentRunner start(final ContinuousDelivery delivery)
    {
        final AgentRunner runner = new AgentRunner(new SleepingMillisIdleStrategy(1), ex ->
        {
            // the agent's own end
        }, null, delivery);
        AgentRunner.startOnThread(runner);
        return runner;
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            latch.await();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** A sink whose deliveries run a script, one step per call (success once the script is done). */
    private static final class ScriptedSink implements OutputSink
    {
        static final Runnable OK = () ->
        {
        };
        static final Runnable UNAVAILABLE = () ->
        {
            throw new DeliveryUnavailableException("delivery failed", new SQLException("connection refused"));
        };

        final Deque<Runnable> outcomes = new ArrayDeque<>();
        final AtomicInteger calls = new AtomicInteger();
        final CountDownLatch aborted = new CountDownLatch(1);
        volatile long held = 7;
        volatile long pending;

        @Override
        public void deliver(final JournalDirectory journal)
        {
            calls.incrementAndGet();
            final Runnable next;
            synchronized (outcomes)
            {
                next = outcomes.poll();
            }
            if (next != null)
            {
                next.run();
            }
        }

        @Override
        public long heldPosition()
        {
            return held;
        }

        @Override
        public long pendingResults(final JournalDirectory journal)
        {
            return pending;
        }

        @Override
        public void abort()
        {
            aborted.countDown();
        }
    }

    /** What the listener was told. */
    private static final class Events implements DeliveryListener
    {
        final List<Long> retries = new CopyOnWriteArrayList<>();
        volatile RuntimeException stopped;
        volatile PendingDelivery pending;

        @Override
        public void onRetry(final DeliveryUnavailableException cause, final long backoffMillis)
        {
            retries.add(backoffMillis);
        }

        @Override
        public void onStopped(final RuntimeException cause)
        {
            stopped = cause;
        }

        @Override
        public void onPending(final PendingDelivery report)
        {
            pending = report;
        }
    }
}
