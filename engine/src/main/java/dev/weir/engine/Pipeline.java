package dev.weir.engine;

import java.util.concurrent.TimeUnit;

import dev.weir.engine.checkpoint.Checkpoint;
import dev.weir.engine.metrics.PipelineMetrics;
import dev.weir.engine.source.EventSlot;
import dev.weir.engine.stage.RunCompletion;
import dev.weir.journal.EventJournal;

/**
 * A configured pipeline over one journal: the journal is read into a Disruptor ring of pre-allocated
 * {@link EventSlot}s, and the window stages (assignment; then aggregation, firing and checkpointing)
 * process it: a publisher thread and one consumer thread ({@link PipelineLayout#FUSED}) or two
 * ({@link PipelineLayout#STAGED}), or one thread that reads the journal into the ring itself whenever it
 * has processed every slot ({@link PipelineLayout#INLINE}).
 * <p>
 * With durable outputs (the default) a run first restores the journal's newest valid checkpoint, if
 * any, and resumes reading just after the offset it covers; outputs reproduced between that checkpoint
 * and the crash are verified against the output journal and suppressed, so every result is written
 * once. {@link #runToEnd()} processes to the journal's current end, fires every open window (the
 * watermark goes to plus infinity) and checkpoints. {@link #start()} follows the journal for new events
 * until {@link #stop()}, which checkpoints without firing open windows.
 * <p>
 * A service that follows a journal is simplest to write over a {@link PipelineService}
 * ({@link PipelineBuilder#buildService()}), which owns the pipeline and gives its state and failure.
 * <p>
 * A following pipeline whose stage or publisher fails processes nothing more: the failure reaches the
 * application through {@link PipelineBuilder#onFailure(PipelineFailureListener)} and
 * {@link PipelineBuilder#onStateChange(PipelineStateListener)} at once, and {@link #awaitOffset} and
 * {@link #stop()} throw it. {@link #asAgent()} runs a following pipeline on the application's own
 * duty-cycle thread instead of Weir's threads.
 * <p>
 * Threads are named {@code weir-<pipeline>-<run>-stage-<i>} and {@code weir-<pipeline>-<run>-publisher}
 * (see {@link PipelineBuilder#threadFactory}); a following run with {@link PipelineBuilder#retention} has a
 * {@code weir-<pipeline>-<run>-retention} thread too, one with {@link PipelineBuilder#idleTimeout} a
 * {@code weir-<pipeline>-<run>-heartbeats} thread, and one with {@link PipelineBuilder#deliverContinuously} a
 * {@code weir-<pipeline>-<run>-delivery} thread; none processes events. Lifecycle lines (resume, running, stopped, failed) are logged
 * through SLF4J by the logger {@code dev.weir.engine.Pipeline}; nothing is logged per event.
 * <p>
 * A pipeline runs once. Result, late and applied listeners are called on the last stage's thread; the
 * failure listener on the thread that saw the failure. {@link #processedEvents()},
 * {@link #processedOffset()}, {@link #state()} and {@link #awaitOffset} may be used from any thread;
 * everything else belongs to the thread that starts the pipeline.
 */
public final class Pipeline implements AutoCloseable
{
    private final PipelineConfiguration config;
    private final Recovery recovery;
    private final RunCompletion completion;
    private final PipelineLifecycle lifecycle;
    private final LifecycleLog log;
    private final InProcessProducer producer;
    private boolean started;
    /** The outcome was given to the owner: a summary returned or the failure thrown once. */
    private boolean reported;
    /** The started run, or null before it starts. */
    private PipelineRun run;
    private PipelineAgent agent;

    Pipeline(final PipelineConfiguration config, final Recovery recovery)
    {
        this.config = config;
        this.recovery = recovery;
        this.lifecycle = new PipelineLifecycle(config.stateListener(), config.failure());
        this.log = new LifecycleLog(config);
        this.completion = new RunCompletion(this::failed);
        this.producer = new InProcessProducer(config.directory());
    }

    /**
     * Process the journal as a bounded input: to its current end (or the replay range's end), then fire
     * every open window.
     *
     * @return what the run did.
     * @throws PipelineFailedException if a stage or the publisher failed.
     * @throws dev.weir.engine.resume.ResumeAfterEndException before anything is processed, if it would resume
     *                                                            from the end of a bounded run with events after it
     *                                                            ({@link PipelineBuilder#resumeAfterEnd(boolean)}).
     */
    public RunSummary runToEnd()
    {
        begin(false, false);
        run.wiring().awaitCompletion();
        return finish();
    }

    /** @return the journal documents this run read to restore its joins' state before it began (0 without joins). */
    long joinDocumentsScanned()
    {
        return run.wiring().joinDocumentsScanned();
    }

    /**
     * Start following the journal: new events are processed as they are appended, until {@link #stop()}.
     *
     * @return this.
     * @throws dev.weir.engine.resume.ResumeAfterEndException before anything is processed, if it would resume
     *                                                            from the end of a bounded run
     *                                                            ({@link PipelineBuilder#resumeAfterEnd(boolean)}).
     */
    public Pipeline start()
    {
        begin(true, false);
        return this;
    }

    /**
     * Stop a following pipeline: process what has been published, checkpoint (open windows stay open, to
     * be resumed), and release its threads and files. Does nothing after a run has finished.
     *
     * @return what the run did, or null if it never started.
     * @throws PipelineFailedException if the run failed (thrown once; later calls return null).
     * @throws IllegalStateException   for a pipeline run {@link #asAgent() as an agent} whose agent has not
     *                                 been closed yet.
     */
    public RunSummary stop()
    {
        if (!started || reported)
        {
            return run == null ? null : run.summary();
        }
        if (run.wiring() == null)
        {
            reported = true; // it failed to start, and threw then
            return null;
        }
        if (agent != null)
        {
            if (!run.released())
            {
                throw new IllegalStateException("a pipeline run as an agent stops when the agent is closed: close its AgentRunner first");
            }
            return report();
        }
        lifecycle.moveTo(PipelineState.STOPPING);
        run.wiring().stopPublishing();
        run.wiring().awaitCompletion();
        return finish();
    }

    /**
     * Run this pipeline as an Agrona {@link org.agrona.concurrent.Agent} on the application's own thread (an
     * {@link org.agrona.concurrent.AgentRunner}, a {@link org.agrona.concurrent.CompositeAgent} or its own duty
     * cycle), instead of on Weir's threads: like {@link #start()}, it follows the journal, in the
     * {@link PipelineLayout#INLINE} layout (one thread reads, assigns, aggregates, fires and checkpoints).
     * The run's files are opened here, on the calling thread, so recovery errors are thrown here; see
     * {@link PipelineAgent} for what each of the agent's methods does. Stop the run by closing the agent
     * (closing its runner); then {@link #stop()} or {@link #close()} returns the summary or throws the failure.
     *
     * @return the agent, not started.
     * @throws IllegalStateException if the pipeline has run, or was configured with a layout other than
     *                               INLINE or a consumer wait strategy.
     * @throws dev.weir.engine.resume.ResumeAfterEndException as for {@link #start()}.
     */
    public PipelineAgent asAgent()
    {
        if (config.layout(true) != PipelineLayout.INLINE)
        {
            throw new IllegalStateException("a pipeline runs as an agent in the INLINE layout only, not " + config.layout(true));
        }
        begin(true, true);
        agent = new PipelineAgent(run, run.wiring(), completion, run.threadPrefix() + "-agent", config.pinning().stageCpu(0));
        return agent;
    }

    /**
     * @return the run's state now (any thread).
     */
    public PipelineState state()
    {
        return lifecycle.state();
    }

    /**
     * Wait until the last stage has applied the journal document at {@code offset} (or a later one). The
     * caller parks; the last stage unparks waiters at the end of each batch it applies, and a failure at once.
     * Any thread may wait.
     *
     * @param offset  a journal offset.
     * @param timeout how long to wait at most.
     * @param unit    the unit of {@code timeout}.
     * @return true if it was applied, false on time-out.
     * @throws PipelineFailedException if the pipeline failed meanwhile.
     * @throws InterruptedException    if interrupted while waiting.
     */
    public boolean awaitOffset(final long offset, final long timeout, final TimeUnit unit) throws InterruptedException
    {
        if (completion.awaitOffset(offset, unit.toNanos(timeout)))
        {
            return true;
        }
        if (completion.failure() != null)
        {
            throw failedException();
        }
        return false;
    }

    /**
     * Same as {@link #stop()}; also closes the journal opened by {@link #append(long, long, String, long)},
     * if any (a pipeline that never started too).
     */
    @Override
    public void close()
    {
        try
        {
            stop();
        }
        finally
        {
            producer.close();
        }
    }

    /**
     * @return ring slots applied by the last stage so far (for progress display; any thread).
     */
    public long processedEvents()
    {
        return completion.processed();
    }

    /**
     * @return the journal offset of the last slot applied so far, or -1 (any thread).
     */
    public long processedOffset()
    {
        return completion.lastOffset();
    }

    /**
     * @return the checkpoint this run resumed from, or null if it started from the beginning.
     */
    public Checkpoint restoredFrom()
    {
        return recovery.checkpoint();
    }

    /**
     * For an in-process producer: append an event to the journal this pipeline reads (a following
     * pipeline then processes it). The same as {@link EventJournal#append(long, long, String, long)} on the
     * journal, opened on first use and closed with the pipeline: call it from one thread (the journal has
     * one appending thread), and close the pipeline from that thread or once it has stopped appending.
     *
     * @param eventId   the event's id.
     * @param eventTime its time, epoch ms.
     * @param key       its key; allocates only the first time a key is seen.
     * @param value     its value.
     * @return the event's offset.
     */
    public long append(final long eventId, final long eventTime, final String key, final long value)
    {
        return producer.journal().append(eventId, eventTime, key, value);
    }

    /**
     * For an in-process producer: append an event with a key id from {@link #keyId(String)}; allocates
     * nothing. Same threading as {@link #append(long, long, String, long)}.
     *
     * @param eventId   the event's id.
     * @param eventTime its time, epoch ms.
     * @param keyId     its key's id.
     * @param value     its value.
     * @return the event's offset.
     */
    public long append(final long eventId, final long eventTime, final int keyId, final long value)
    {
        return producer.journal().append(eventId, eventTime, keyId, value);
    }

    /**
     * For an in-process producer: append a heartbeat to the journal this pipeline reads, the same as
     * {@link EventJournal#appendHeartbeat(long)}: no event, but at its offset the watermark advances as an
     * event of {@code eventTime} would move it (never backwards), firing the windows that completes; a replay
     * applies it at the same offset. Allocates nothing. Same threading as {@link #append(long, long, String, long)}.
     *
     * @param eventTime the heartbeat's event time, epoch ms.
     * @return its offset.
     */
    public long appendHeartbeat(final long eventTime)
    {
        return producer.journal().appendHeartbeat(eventTime);
    }

    /**
     * @return the run's counters and latency histograms, the values {@code weir stat} shows, to read from any
     *         thread while it runs and after it ended (with their last values).
     * @throws IllegalStateException if the pipeline has not started.
     */
    public PipelineMetrics metrics()
    {
        final RunStages stages = run == null ? null : run.stages();
        if (stages == null)
        {
            throw new IllegalStateException("the pipeline has not started");
        }
        return stages.metrics();
    }

    /**
     * @param key a key.
     * @return its id in the journal, defined (with an event of that key) the first time it is appended.
     */
    public int keyId(final String key)
    {
        return producer.journal().keyId(key);
    }

    private void begin(final boolean follow, final boolean polled)
    {
        if (started)
        {
            throw new IllegalStateException("a pipeline runs once");
        }
        config.checkResume(recovery, follow); // before anything runs: refused, the pipeline may be closed or dropped
        started = true;
        lifecycle.moveTo(PipelineState.STARTING);
        run = new PipelineRun(config, recovery, completion, lifecycle, log, producer);
        try
        {
            run.open(follow, polled);
        }
        catch (final RuntimeException | Error ex)
        {
            completion.fail(ex);
            throw ex;
        }
        if (!polled)
        {
            run.running(follow, run.threadPrefix());
        }
    }

    private RunSummary finish()
    {
        run.release();
        return report();
    }

    /** Give the owner the outcome, once: the summary, or the failure thrown; later calls return the summary (null after a failure). */
    private RunSummary report()
    {
        if (reported)
        {
            return run.summary();
        }
        reported = true;
        if (completion.failure() != null)
        {
            throw failedException();
        }
        return run.summary();
    }

    /** The run's first failure, on the thread that saw it: logged, then told to the lifecycle and the listeners. */
    private void failed(final Throwable cause)
    {
        log.failed(cause);
        lifecycle.failed(cause);
    }

    private PipelineFailedException failedException()
    {
        return new PipelineFailedException("pipeline over " + config.directory() + " failed: " + completion.failure(), completion.failure());
    }

    /** @return the run's lifecycle, for the {@link PipelineService} that owns this pipeline. */
    PipelineLifecycle lifecycle()
    {
        return lifecycle;
    }

    /** @return the run's failure as the owner is given it, or null if it has not failed (any thread). */
    PipelineFailedException failure()
    {
        return completion.failure() == null ? null : failedException();
    }

    /**
     * @return the configuration string that a checkpoint must match to be resumed.
     */
    String configuration()
    {
        return config.describe();
    }
}
