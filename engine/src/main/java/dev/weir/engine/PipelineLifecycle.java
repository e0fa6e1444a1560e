package dev.weir.engine;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run's {@link PipelineState}, and who is told when it changes: the {@link PipelineStateListener} of
 * every change, then, for a failure, the {@link PipelineFailureListener}.
 * <p>
 * Thread-safe: {@link #state()} is a volatile read; changes are made under this object's lock, so they are
 * told in order, one at a time, on the thread that makes them, and wake the threads waiting in
 * {@link #awaitFinal(long)}. A change to an earlier state, or from a final one, is refused.
 */
final class PipelineLifecycle
{
    private static final Logger LOG = LoggerFactory.getLogger(PipelineLifecycle.class);

    private final PipelineStateListener stateListener;
    private final PipelineFailureListener failureListener;
    private volatile PipelineState state = PipelineState.NEW;

    /**
     * @param stateListener   told of each change, or null.
     * @param failureListener told of a failure after the state listener, or null.
     */
    PipelineLifecycle(final PipelineStateListener stateListener, final PipelineFailureListener failureListener)
    {
        this.stateListener = stateListener;
        this.failureListener = failureListener;
    }

    /**
     * @return the state now (any thread).
     */
    PipelineState state()
    {
        return state;
    }

    /**
     * Move to a later state that is not {@link PipelineState#FAILED}, and tell the state listener.
     *
     * @param next the state.
     * @return true if the state changed; false if it already was {@code next}, later, or final.
     */
    synchronized boolean moveTo(final PipelineState next)
    {
        assert next != PipelineState.FAILED : "use failed(cause)";
        if (state.isFinal() || next.ordinal() <= state.ordinal())
        {
            return false;
        }
        state = next;
        notifyAll();
        if (stateListener != null)
        {
            try
            {
                stateListener.onStateChange(next, null);
            }
            catch (final RuntimeException | Error ex)
            {
                LOG.warn("the state listener threw on {}", next, ex);
            }
        }
        return true;
    }

    /**
     * Move to {@link PipelineState#FAILED} unless the state is final, and tell the state listener, then the
     * failure listener. An exception either throws is added to {@code cause} as suppressed.
     *
     * @param cause why the run failed.
     */
    synchronized void failed(final Throwable cause)
    {
        if (state.isFinal())
        {
            return;
        }
        state = PipelineState.FAILED;
        notifyAll();
        if (stateListener != null)
        {
            try
            {
                stateListener.onStateChange(PipelineState.FAILED, cause);
            }
            catch (final RuntimeException | Error ex)
            {
                suppress(cause, ex);
            }
        }
        if (failureListener != null)
        {
            try
            {
                failureListener.onFailure(cause);
            }
            catch (final RuntimeException | Error ex)
            {
                suppress(cause, ex);
            }
        }
    }

    /**
     * Wait until the state is final ({@link PipelineState#STOPPED} or {@link PipelineState#FAILED}).
     *
     * @param nanos how long to wait at most; {@link Long#MAX_VALUE} for ever.
     * @return true if the state is final, false on time-out.
     * @throws InterruptedException if interrupted while waiting.
     */
    synchronized boolean awaitFinal(final long nanos) throws InterruptedException
    {
        final long deadline = System.nanoTime() + nanos;
        while (!state.isFinal())
        {
            if (nanos == Long.MAX_VALUE)
            {
                wait();
                continue;
            }
            final long left = deadline - System.nanoTime();
            if (left <= 0)
            {
                return false;
            }
            wait(left / 1_000_000, (int)(left % 1_000_000));
        }
        return true;
    }

    private static void suppress(final Throwable cause, final Throwable ex)
    {
        LOG.warn("a listener threw on the run's failure", ex);
        if (ex != cause)
        {
            cause.addSuppressed(ex);
        }
    }
}
