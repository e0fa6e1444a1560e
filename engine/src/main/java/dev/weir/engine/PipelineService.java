package dev.weir.engine;

import java.time.Duration;
import java.util.Objects;

/**
 * A following pipeline as a service owns it: one object to {@link #start()}, to wait on
 * ({@link #awaitTermination()}) and to {@link #close()}, with its {@link #state()} and its {@link #failure()}.
 * No shutdown hook, latch or failure listener is needed: a failure of the run (a stage, the publisher, a listener, a
 * checkpoint) wakes {@link #awaitTermination()}, which releases the run's threads and files and throws it.
 * <pre>{@code
 * PipelineService alerts = rule.journal(dir).buildService().start();
 * Runtime.getRuntime().addShutdownHook(new Thread(alerts::close));   // optional: close() is safe from a hook
 * alerts.awaitTermination();   // returns once closed; throws PipelineFailedException if the run failed
 * }</pre>
 * States, as {@link PipelineState} has them: {@code NEW} until started; {@code STARTING}, {@code RUNNING};
 * {@code STOPPING} and {@code STOPPED} once closed (a service closed before it started goes to {@code STOPPED} at
 * once); or {@code FAILED}, final, from any state but {@code STOPPED}. A failure while starting is thrown by
 * {@link #start()}; a failure of the running pipeline is the state {@code FAILED}, returned by {@link #failure()}
 * and thrown by {@link #awaitTermination()}, never by {@link #close()}.
 * <p>
 * Thread-safe: every method may be called from any thread, {@link #close()} from a shutdown hook too, and
 * several threads may wait at once. Starting and releasing the run are serialised by this object's lock, so the
 * pipeline underneath is used by one thread at a time. The exception: {@link #close()} and the waits must not be
 * called from the pipeline's own threads (a result, late, applied, state or failure listener), which they would
 * wait for; a listener that wants the service to stop sets a flag for the owning thread, as for
 * {@code KafkaStreams}. {@link #pipeline()} gives the pipeline's views (metrics, processed offset,
 * {@link Pipeline#awaitOffset}, the in-process producer); its {@code start}, {@code stop} and {@code close} are the
 * service's.
 */
public final class PipelineService implements AutoCloseable
{
    private final Pipeline pipeline;
    private final PipelineLifecycle lifecycle;
    /** Guards starting and releasing the pipeline. */
    private final Object lock = new Object();
    private boolean started;
    private boolean released;
    private volatile RunSummary summary;

    PipelineService(final Pipeline pipeline)
    {
        this.pipeline = pipeline;
        this.lifecycle = pipeline.lifecycle();
    }

    /**
     * Start following the journal: new events are processed as they are appended, until {@link #close()}.
     *
     * @return this.
     * @throws IllegalStateException if it was started or closed before.
     * @throws RuntimeException      what starting failed with (a recovery error, e.g.
     *                               {@link dev.weir.engine.resume.ResumeAfterEndException}); the state is then
     *                               {@link PipelineState#FAILED} unless nothing had started.
     */
    public PipelineService start()
    {
        synchronized (lock)
        {
            if (started || released)
            {
                throw new IllegalStateException("a pipeline service starts once: it is " + state());
            }
            started = true;
            try
            {
                pipeline.start();
            }
            catch (final RuntimeException | Error ex)
            {
                release();
                throw ex;
            }
        }
        return this;
    }

    /** @return where the run is in its life (any thread). */
    public PipelineState state()
    {
        return lifecycle.state();
    }

    /**
     * @return the run's failure, once the state is {@link PipelineState#FAILED}: a {@link PipelineFailedException}
     *         whose cause is what failed; null otherwise (any thread).
     */
    public PipelineFailedException failure()
    {
        return pipeline.failure();
    }

    /**
     * Wait until the service is closed or the run fails. On a failure the run's threads and files are released
     * first (as {@link #close()} does), then the failure is thrown.
     *
     * @throws PipelineFailedException if the run failed.
     * @throws InterruptedException    if interrupted while waiting.
     */
    public void awaitTermination() throws InterruptedException
    {
        lifecycle.awaitFinal(Long.MAX_VALUE);
        terminated();
    }

    /**
     * Wait at most {@code timeout} until the service is closed or the run fails; as {@link #awaitTermination()}.
     *
     * @param timeout how long to wait at most.
     * @return true if the service is closed, false on time-out.
     * @throws PipelineFailedException if the run failed.
     * @throws InterruptedException    if interrupted while waiting.
     */
    public boolean awaitTermination(final Duration timeout) throws InterruptedException
    {
        if (!lifecycle.awaitFinal(Math.max(0, Objects.requireNonNull(timeout, "timeout").toNanos())))
        {
            return false;
        }
        terminated();
        return true;
    }

    /**
     * Stop: the run processes what was published, checkpoints (open windows stay open, to be resumed) and releases
     * its threads and files; the state goes to {@link PipelineState#STOPPED}, or stays {@link PipelineState#FAILED}.
     * Idempotent: a second call, or a call while another thread closes, returns once the run is released. Never
     * throws the run's failure ({@link #failure()}, {@link #awaitTermination()} give it).
     */
    @Override
    public void close()
    {
        synchronized (lock)
        {
            if (!started && !released)
            {
                lifecycle.moveTo(PipelineState.STOPPED); // never started: nothing to stop
            }
            release();
        }
    }

    /**
     * @return what the run did, once {@link #close()} or {@link #awaitTermination()} returned without a failure; else null.
     */
    public RunSummary summary()
    {
        return summary;
    }

    /**
     * @return the pipeline, for its views: {@link Pipeline#metrics()}, {@link Pipeline#processedOffset()},
     *         {@link Pipeline#awaitOffset}, and its in-process producer ({@link Pipeline#append}); start and stop it
     *         through this service.
     */
    public Pipeline pipeline()
    {
        return pipeline;
    }

    /** The run is final: release it, if it failed (or wait for the thread closing it), then throw the failure. */
    private void terminated()
    {
        synchronized (lock)
        {
            release();
        }
        final PipelineFailedException failure = pipeline.failure();
        if (failure != null)
        {
            throw failure;
        }
    }

    /** Release the run once (under the lock): the failure, if any, is the state's and {@link #failure()}'s. */
    private void release()
    {
        if (released)
        {
            return;
        }
        released = true;
        try
        {
            summary = pipeline.stop();
        }
        catch (final PipelineFailedException ex)
        {
            // the run's failure: FAILED, given by failure() and awaitTermination()
        }
        finally
        {
            pipeline.close(); // the in-process producer's journal, if any
        }
    }
}
