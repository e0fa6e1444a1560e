package dev.weir.engine.stage;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import dev.weir.engine.source.RunFailure;

/**
 * How the last stage tells the owner of a run that it has finished, failed, or how far it has got.
 * <p>
 * {@link #progress(long, long)} is written by the last stage's thread only (two volatile writes, read
 * separately: a reader may see the offset of one slot with the count of the next) and may be read by any
 * thread for progress display. {@link #complete()} and {@link #fail(Throwable)} may
 * be called from any thread. The run has ended once either was called ({@link #await}); the first
 * failure is kept, later ones are ignored, and a failure counts even after {@link #complete()} (closing
 * a run that processed its last slot can still fail), so {@link #failure()} is what decides whether the
 * run failed. The failure listener is told of the first failure only, once, on the failing thread.
 * Waiting threads see every write made before the call that ended the run.
 */
public final class RunCompletion implements RunFailure
{
    private final CountDownLatch done = new CountDownLatch(1);
    private final Consumer<Throwable> onFailure;
    private volatile Throwable failure;
    private volatile long lastOffset = -1;
    private volatile long processed;

    /** A completion that tells no one of a failure. */
    public RunCompletion()
    {
        this(null);
    }

    /**
     * @param onFailure told of the first failure, on the thread that reports it, or null; an exception
     *                  it throws is added to the failure as suppressed.
     */
    public RunCompletion(final Consumer<Throwable> onFailure)
    {
        this.onFailure = onFailure;
    }

    /**
     * Record how far the last stage has got (last stage thread only).
     *
     * @param offset   journal offset of the slot just applied.
     * @param sequence ring sequence of the slot just applied.
     */
    public void progress(final long offset, final long sequence)
    {
        lastOffset = offset;
        processed = sequence + 1;
    }

    /** The run ended normally. */
    public void complete()
    {
        done.countDown();
    }

    /**
     * The run failed.
     *
     * @param cause why.
     */
    @Override
    public void fail(final Throwable cause)
    {
        final boolean first;
        synchronized (done)
        {
            first = failure == null;
            if (first)
            {
                failure = cause;
            }
        }
        done.countDown();
        if (first && onFailure != null)
        {
            try
            {
                onFailure.accept(cause);
            }
            catch (final RuntimeException | Error ex)
            {
                if (ex != cause)
                {
                    cause.addSuppressed(ex);
                }
            }
        }
    }

    /**
     * Wait for the run to end.
     *
     * @param timeout how long to wait.
     * @param unit    unit of the timeout.
     * @return true if it ended, false on time-out.
     * @throws InterruptedException if interrupted while waiting.
     */
    public boolean await(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        return done.await(timeout, unit);
    }

    /**
     * @return the failure, or null.
     */
    @Override
    public Throwable failure()
    {
        return failure;
    }

    /**
     * @return the journal offset of the last slot the last stage applied, or -1.
     */
    public long lastOffset()
    {
        return lastOffset;
    }

    /**
     * @return ring slots the last stage has applied (events plus markers).
     */
    public long processed()
    {
        return processed;
    }
}
