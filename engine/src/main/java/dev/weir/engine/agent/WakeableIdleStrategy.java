package dev.weir.engine.agent;

import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;

/**
 * The idle strategy of a background agent that parks long between duty cycles (a checkpoint writer waiting
 * for a submission, a sampler, retention, heartbeats): after a cycle that did no work it parks for up to its
 * period; {@link #wake(AgentRunner)} ends a park at once (a park begun after the wake returns at once too);
 * once {@link #close(AgentRunner) closing} it parks no more, so the runner stops as soon as it is closed
 * instead of after a period.
 * <p>
 * Thread-safety: {@link #idle(int)} is for the runner's thread; {@link #wake} and {@link #close} for any other
 * thread. One strategy per runner. Allocates nothing.
 */
public final class WakeableIdleStrategy implements IdleStrategy
{
    private final long periodNanos;
    private volatile boolean closing;

    /**
     * @param periodNanos the longest park between two duty cycles, ns.
     */
    public WakeableIdleStrategy(final long periodNanos)
    {
        this.periodNanos = periodNanos;
    }

    @Override
    public void idle(final int workCount)
    {
        if (workCount <= 0 && !closing)
        {
            LockSupport.parkNanos(this, periodNanos);
        }
    }

    @Override
    public void idle()
    {
        if (!closing)
        {
            LockSupport.parkNanos(this, periodNanos);
        }
    }

    @Override
    public void reset()
    {
    }

    @Override
    public String alias()
    {
        return "wakeable";
    }

    /**
     * End the runner's park now, if its thread runs (if not yet, its first duty cycle comes without one).
     *
     * @param runner the runner this strategy idles.
     */
    public void wake(final AgentRunner runner)
    {
        final Thread thread = runner.thread();
        if (thread != null)
        {
            LockSupport.unpark(thread);
        }
    }

    /**
     * Stop parking, wake the runner and close it: its agent's last duty cycle ends, then its
     * {@code onClose()} runs; this waits for both, however long they take (a checkpoint write on a slow disk),
     * and never interrupts them unless the calling thread is interrupted (Agrona's default close interrupts
     * the agent after 5 s and prints to standard error).
     *
     * @param runner the runner this strategy idles.
     */
    public void close(final AgentRunner runner)
    {
        closing = true;
        wake(runner);
        runner.close(Integer.MAX_VALUE, thread -> { });
    }
}
