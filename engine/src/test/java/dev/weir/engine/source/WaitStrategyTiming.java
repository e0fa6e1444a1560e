package dev.weir.engine.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.WaitStrategy;

/**
 * A shared timing harness for wait strategies, in the manner of the Disruptor's own: a waiter asks for
 * sequence 0 of a dependent sequence that another thread advances only after a delay. The waiter must
 * return sequence 0, and not before the advance (checked against the time the advancing thread recorded
 * just before it advanced, not against a wall-clock speed). The only speed bound is a generous upper one.
 */
final class WaitStrategyTiming
{
    /** The generous upper bound on any wait. */
    static final long UPPER_BOUND_NANOS = TimeUnit.SECONDS.toNanos(60);

    private WaitStrategyTiming()
    {
    }

    /**
     * @param delayMillis how long the advancing thread waits before advancing.
     * @param strategy    the strategy under test.
     * @param barrier     the barrier the strategy checks for alerts.
     */
    static void assertWaitForWithDelayOf(final long delayMillis, final WaitStrategy strategy, final SequenceBarrier barrier) throws Exception
    {
        final Sequence cursor = new Sequence(-1);
        final Sequence dependent = new Sequence(-1);
        final CountDownLatch started = new CountDownLatch(1);
        final long[] advancedAt = new long[1];
        final Thread advancer = new Thread(() ->
        {
            try
            {
                started.await();
                Thread.sleep(delayMillis);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return;
            }
            advancedAt[0] = System.nanoTime();
            cursor.set(0);
            dependent.set(0);
            strategy.signalAllWhenBlocking();
        }, "sequence-advancer");
        advancer.setDaemon(true);
        advancer.start();

        final long begin = System.nanoTime();
        started.countDown();
        final long returned = strategy.waitFor(0, cursor, dependent, barrier);
        final long returnedAt = System.nanoTime();
        advancer.join(60_000);

        assertEquals(0, returned, "the sequence the waiter was released for");
        assertTrue(returnedAt - advancedAt[0] >= 0, "the waiter returned before the sequence was advanced");
        assertTrue(returnedAt - begin >= TimeUnit.MILLISECONDS.toNanos(delayMillis), "the waiter returned before the delay was over");
        assertTrue(returnedAt - begin < UPPER_BOUND_NANOS, "the waiter was released within the upper bound");
    }
}
