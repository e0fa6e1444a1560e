package dev.weir.engine.checkpoint;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiFunction;
import java.util.function.Consumer;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;

import dev.weir.engine.agent.WakeableIdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes checkpoints to a {@link CheckpointStore} on a background thread, so the engine's thread pauses
 * only to snapshot its state into memory, not for the file write, the forces and the rename.
 * <p>
 * One checkpoint is in flight at most: {@link #isIdle()} tells the engine whether it may
 * {@link #submit(StateBuffer)} another, and the buffer submitted belongs to the writer until it is idle
 * again. Checkpoints are written in submission order, so a newer checkpoint never lands before an older
 * one. A failed write is kept and thrown to the engine by its next call ({@link #isIdle()},
 * {@link #awaitIdle()}), and told at once to the failure listener, if any, on the writer thread (a
 * following engine may make no such call for long). The writer is an Agrona {@link Agent} (role
 * {@code checkpoint}): its runner is started on the first submission, by the pipeline's threads (its thread's
 * name, the application's thread factory), and closed by {@link #close()}. Between checkpoints it parks; a
 * submission wakes it.
 * <p>
 * Logs (SLF4J, logger {@code dev.weir.engine.checkpoint.CheckpointWriter}) each checkpoint written at DEBUG
 * (sequence, journal offset, bytes, write time) and a failed write at WARN, from the thread that wrote it.
 * <p>
 * Thread-safety: {@link #submit(StateBuffer)}, {@link #isIdle()}, {@link #awaitIdle()} and
 * {@link #close()} are for the one engine thread that owns this writer; the store is used by the writer
 * thread only while a checkpoint is in flight, and by the engine thread only while the writer is idle.
 */
public final class CheckpointWriter implements Agent, AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointWriter.class);
    /** The longest the idle writer parks before looking again; a submission or {@link #close()} wakes it sooner. */
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final CheckpointStore store;
    /** The journal offset the pending checkpoint covers, for its log line; written before {@link #pending}. */
    private long pendingOffset = -1;
    private volatile StateBuffer pending;
    private volatile Throwable failure;
    private volatile boolean closed;
    private volatile Consumer<Throwable> failureListener;
    private volatile CheckpointListener writtenListener;
    private final BiFunction<Agent, IdleStrategy, AgentRunner> runners;
    private final WakeableIdleStrategy idle = new WakeableIdleStrategy(IDLE_PARK_NANOS);
    /** The writer's runner, started on the first submission; null before it. */
    private AgentRunner runner;

    /**
     * @param store   where checkpoints go; used only through this writer from now on.
     * @param runners starts the writer (an agent, with its idle strategy) on a thread of its own and returns
     *                its runner: the pipeline's thread naming and factory.
     */
    public CheckpointWriter(final CheckpointStore store, final BiFunction<Agent, IdleStrategy, AgentRunner> runners)
    {
        this.store = store;
        this.runners = runners;
    }

    /**
     * @param listener told of a failed background write, on the writer thread, as soon as it fails; set
     *                 before the first {@link #submit(StateBuffer)}.
     */
    public void onFailure(final Consumer<Throwable> listener)
    {
        this.failureListener = listener;
    }

    /**
     * @param listener told of each checkpoint once it is durable, on the thread that wrote it; set before the
     *                 first checkpoint, or null for none.
     */
    public void onWritten(final CheckpointListener listener)
    {
        this.writtenListener = listener;
    }

    /**
     * @return true if no checkpoint is in flight.
     * @throws IllegalStateException if the last write failed.
     */
    public boolean isIdle()
    {
        final boolean idle = pending == null;
        checkFailure();
        return idle;
    }

    /**
     * Hand a filled buffer to the writer thread. Call only when {@link #isIdle()}.
     *
     * @param state the checkpoint's payload; not touched by the caller until the writer is idle again.
     */
    public void submit(final StateBuffer state)
    {
        submit(state, -1);
    }

    /**
     * Hand a filled buffer to the writer thread. Call only when {@link #isIdle()}.
     *
     * @param state  the checkpoint's payload; not touched by the caller until the writer is idle again.
     * @param offset the journal offset it covers, for the log, or -1.
     */
    public void submit(final StateBuffer state, final long offset)
    {
        if (closed)
        {
            throw new IllegalStateException("the checkpoint writer is closed");
        }
        if (pending != null)
        {
            throw new IllegalStateException("a checkpoint is already in flight");
        }
        pendingOffset = offset;
        pending = state;
        if (runner == null)
        {
            runner = runners.apply(this, idle);
        }
        else
        {
            idle.wake(runner);
        }
    }

    /**
     * Write a checkpoint on the calling (engine) thread, after the one in flight, if any: when this
     * returns it is durable.
     *
     * @param state the checkpoint's payload.
     */
    public void writeNow(final StateBuffer state)
    {
        writeNow(state, -1);
    }

    /**
     * Write a checkpoint on the calling (engine) thread, after the one in flight, if any: when this
     * returns it is durable.
     *
     * @param state  the checkpoint's payload.
     * @param offset the journal offset it covers, for the log, or -1.
     */
    public void writeNow(final StateBuffer state, final long offset)
    {
        awaitIdle();
        write(state, offset);
    }

    /** Write a checkpoint and log it (DEBUG), or log its failure (WARN) and throw it. */
    private void write(final StateBuffer state, final long offset)
    {
        final long started = System.nanoTime();
        final int bytes = state.written().remaining();
        try
        {
            final long sequence = store.write(state.written());
            final CheckpointListener listener = writtenListener;
            if (listener != null)
            {
                listener.onCheckpoint(sequence, state.written().asReadOnlyBuffer());
            }
            if (LOG.isDebugEnabled())
            {
                LOG.debug("checkpoint {} written: journal offset {}, {} bytes, in {} us", sequence, offset, bytes,
                    (System.nanoTime() - started) / 1_000);
            }
        }
        catch (final RuntimeException | Error ex)
        {
            LOG.warn("writing a checkpoint (journal offset {}, {} bytes) failed: {}", offset, bytes, ex.toString());
            throw ex;
        }
    }

    /**
     * Wait until the checkpoint in flight, if any, is written.
     *
     * @throws IllegalStateException if the write failed.
     */
    public void awaitIdle()
    {
        while (pending != null && failure == null)
        {
            final Thread thread = runner.thread();
            if (runner.isClosed() || thread != null && !thread.isAlive())
            {
                throw new IllegalStateException("the checkpoint writer stopped with a checkpoint in flight");
            }
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
        }
        checkFailure();
    }

    /**
     * Stop the writer once the checkpoint in flight is written, and wait for it.
     */
    @Override
    public void close()
    {
        closed = true;
        if (runner != null)
        {
            idle.close(runner); // its last duty cycle, or onClose, writes what is in flight
        }
    }

    /**
     * The writer's duty cycle, on its thread: write the checkpoint in flight, if any.
     *
     * @return 1 if it wrote one, else 0.
     */
    @Override
    public int doWork()
    {
        return writePending() ? 1 : 0;
    }

    /** Write the checkpoint still in flight when the runner stops. */
    @Override
    public void onClose()
    {
        writePending();
    }

    @Override
    public String roleName()
    {
        return "checkpoint";
    }

    private boolean writePending()
    {
        final StateBuffer state = pending;
        if (state == null)
        {
            return false;
        }
        Throwable failed = null;
        try
        {
            write(state, pendingOffset);
        }
        catch (final Throwable ex)
        {
            failure = ex;
            failed = ex;
        }
        pending = null;
        final Consumer<Throwable> listener = failureListener;
        if (failed != null && listener != null)
        {
            listener.accept(new IllegalStateException("writing a checkpoint failed: " + failed, failed));
        }
        return true;
    }

    private void checkFailure()
    {
        final Throwable ex = failure;
        if (ex != null)
        {
            throw new IllegalStateException("writing a checkpoint failed: " + ex, ex);
        }
    }
}
