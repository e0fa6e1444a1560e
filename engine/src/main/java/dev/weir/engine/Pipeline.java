package dev.weir.engine;

import java.util.concurrent.TimeUnit;

import dev.weir.engine.checkpoint.Checkpoint;
import dev.weir.engine.checkpoint.Recovery;
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
 * A following pipeline whose stage or publisher fails processes nothing more: the failure reaches the
 * application through {@link PipelineBuilder#onFailure(PipelineFailureListener)} at once, and
 * {@link #awaitOffset} and {@link #stop()} throw it.
 * <p>
 * A pipeline runs once. Result, late and applied listeners are called on the last stage's thread; the
 * failure listener on the thread that saw the failure. {@link #processedEvents()} and
 * {@link #processedOffset()} may be read from any thread; everything else belongs to the thread that
 * starts the pipeline.
 */
public final class Pipeline implements AutoCloseable
{
    private final PipelineConfiguration config;
    private final Recovery recovery;
    private final RunCompletion completion;
    private final InProcessProducer producer;
    private boolean started;
    private boolean closed;
    private long startedNanos;
    private RunStages stages;
    private Wiring wiring;
    private RunSummary summary;

    Pipeline(final PipelineConfiguration config, final Recovery recovery)
    {
        this.config = config;
        this.recovery = recovery;
        this.completion = new RunCompletion(config.failure() == null ? null : config.failure()::onFailure);
        this.producer = new InProcessProducer(config.directory());
    }

    /**
     * Process the journal as a bounded input: to its current end (or the replay range's end), then fire
     * every open window.
     *
     * @return what the run did.
     * @throws PipelineFailedException if a stage or the publisher failed.
     */
    public RunSummary runToEnd()
    {
        begin(false);
        wiring.awaitCompletion();
        return finish();
    }

    /**
     * Start following the journal: new events are processed as they are appended, until {@link #stop()}.
     *
     * @return this.
     */
    public Pipeline start()
    {
        begin(true);
        return this;
    }

    /**
     * Stop a following pipeline: process what has been published, checkpoint (open windows stay open, to
     * be resumed), and release its threads and files. Does nothing after a run has finished.
     *
     * @return what the run did, or null if it never started.
     */
    public RunSummary stop()
    {
        if (summary != null || !started)
        {
            return summary;
        }
        wiring.stopPublishing();
        wiring.awaitCompletion();
        return finish();
    }

    /**
     * Wait until the last stage has applied the journal document at {@code offset} (or a later one).
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
        final long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (completion.lastOffset() < offset)
        {
            if (completion.failure() != null)
            {
                throw failed();
            }
            if (System.nanoTime() >= deadline)
            {
                return false;
            }
            Thread.sleep(1);
        }
        return true;
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

    private void begin(final boolean follow)
    {
        if (started)
        {
            throw new IllegalStateException("a pipeline runs once");
        }
        started = true;
        startedNanos = System.nanoTime();
        stages = new RunStages(config, recovery, completion);
        wiring = new Wiring(config, follow, completion, stages.reader(), stages.assigner(), stages.lastStage(), stages.rejectedLines(), stages.readClocks(),
            stages.keyTuples());
        wiring.start();
    }

    private RunSummary finish()
    {
        if (closed)
        {
            return summary;
        }
        closed = true;
        wiring.halt(); // nothing below is closed under a stage still running
        stages.close(completion);
        producer.close();
        if (completion.failure() != null)
        {
            throw failed();
        }
        final long lastOffset = completion.lastOffset() >= 0 ? completion.lastOffset() : recovery.resumeAfterOffset();
        summary = RunSummary.of(stages.counters(), lastOffset, System.nanoTime() - startedNanos);
        return summary;
    }

    private PipelineFailedException failed()
    {
        return new PipelineFailedException("pipeline over " + config.directory() + " failed: " + completion.failure(), completion.failure());
    }

    /**
     * @return the configuration string that a checkpoint must match to be resumed.
     */
    String configuration()
    {
        return config.describe();
    }
}
