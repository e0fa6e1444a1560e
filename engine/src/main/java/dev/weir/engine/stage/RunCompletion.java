package dev.weir.engine.stage;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
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
 * <p>
 * {@link #awaitOffset(long, long)} parks its caller; {@link #progress(long, long)} unparks every waiter (one
 * volatile read when nobody waits), as does a failure.
 */
public final class RunCompletion implements RunFailure
{
    private final CountDownLatch done = new CountDownLatch(1);
    private final Consumer<Throwable> onFailure;
    private volatile Throwable failure;
    private volatile long lastOffset = -1;
    private volatile long processed;
    /** The threads parked in {@link #awaitOffset}; read once per batch by the last stage. */
    private final List<Thread> waiters = new CopyOnWriteArrayList<>();

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
        processed = sequence + 1;
        lastOffset = offset;
        if (!waiters.isEmpty())
        {
            waiters.forEach(LockSupport::unpark);
        }
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
        waiters.forEach(LockSupport::unpark);
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
     * @return true once the run has ended: {@link #complete()} or {@link #fail(Throwable)} was called.
     */
    public boolean ended()
    {
        return done.getCount() == 0;
    }

    /**
     * Wait, parked, until the last stage has applied the slot at {@code offset} (or a later one), the run
     * fails, or the time is up. The last stage wakes waiters at the end of each batch.
     *
     * @param offset a journal offset.
     * @param nanos  how long to wait at most.
     * @return true if it was applied; false on time-out, or if the run failed first ({@link #failure()}).
     * @throws InterruptedException if interrupted while waiting.
     */
    public boolean awaitOffset(final long offset, final long nanos) throws InterruptedException
    {
        if (lastOffset >= offset)
        {
            return true;
        }
        final long deadline = System.nanoTime() + nanos;
        final Thread self = Thread.currentThread();
        waiters.add(self); // before reading the offset again: a later progress() sees it and unparks
        try
        {
            while (lastOffset < offset)
            {
                if (failure != null)
                {
                    return false;
                }
                final long left = deadline - System.nanoTime();
                if (left <= 0)
                {
                    return false;
                }
                LockSupport.parkNanos(this, left);
                if (Thread.interrupted())
                {
                    throw new InterruptedException();
                }
            }
            return true;
        }
        finally
        {
            waiters.remove(self);
        }
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
