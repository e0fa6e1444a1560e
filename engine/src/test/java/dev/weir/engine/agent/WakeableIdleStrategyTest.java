package dev.weir.engine.agent;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;

import org.junit.jupiter.api.Test;

/**
 * An agent idling with a period of an hour is woken at once by {@link WakeableIdleStrategy#wake}, and
 * {@link WakeableIdleStrategy#close} stops it at once, its {@code onClose()} done, without interrupting it.
 */
class WakeableIdleStrategyTest
{
    private static final long AN_HOUR = TimeUnit.HOURS.toNanos(1);

    @Test
    void aWakeEndsTheParkAndACloseStopsTheRunnerWithoutWaitingForThePeriod() throws Exception
    {
        final Semaphore cycles = new Semaphore(0);
        final CountDownLatch closed = new CountDownLatch(1);
        final boolean[] interrupted = new boolean[1];
        final Agent agent = new Agent()
        {
            @Override
            public int doWork()
            {
                cycles.release();
                return 0;
            }

            @Override
            public void onClose()
            {
                interrupted[0] = Thread.currentThread().isInterrupted();
                closed.countDown();
            }

            @Override
            public String roleName()
            {
                return "sleeper";
            }
        };
        final WakeableIdleStrategy idle = new WakeableIdleStrategy(AN_HOUR);
        final AgentRunner runner = new AgentRunner(idle, Throwable::printStackTrace, null, agent);
        AgentRunner.startOnThread(runner);
        assertTrue(cycles.tryAcquire(60, TimeUnit.SECONDS), "the first duty cycle");
        idle.wake(runner);
        assertTrue(cycles.tryAcquire(60, TimeUnit.SECONDS), "woken out of an hour's park");
        // a hang guard far below the hour a close would take if it waited for the park
        assertTimeoutPreemptively(Duration.ofMinutes(5), () -> idle.close(runner));
        assertTrue(closed.await(0, TimeUnit.SECONDS), "onClose ran before close returned");
        assertTrue(runner.isClosed());
        assertFalse(interrupted[0], "the agent was not interrupted");
    }
}
