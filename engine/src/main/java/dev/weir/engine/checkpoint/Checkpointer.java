package dev.weir.engine.checkpoint;

import java.util.function.BiFunction;
import java.util.function.Consumer;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;

import dev.weir.engine.emit.OutputJournalSink;
import dev.weir.engine.operator.OperatorState;
import dev.weir.journal.JournalReader;

/**
 * Takes checkpoints on the last stage's thread, between two events: every {@code interval} events, and
 * after the end of a bounded input or on shutdown.
 * <p>
 * A checkpoint holds the configuration, the offset of the last journal document applied, the output
 * position of the last output written (so the outputs it covers and the offset it resumes from are one
 * consistent cut), and the aggregation stage's whole state. With {@code syncOutputs} the events journal
 * (every event the checkpoint covers, whoever appended it: an ingest, another process, the Java API) and
 * the output journal are forced to disk first, before the checkpoint is handed to be written and renamed,
 * so the cut also survives a machine crash.
 * <p>
 * A periodic checkpoint only pauses the engine to snapshot the state into memory: a
 * {@link CheckpointWriter} writes it to the store in the background (if the previous one is still being
 * written, the checkpoint waits for the next event). Checkpoints at the end of a bounded input and on
 * shutdown ({@link #take(byte)}) are durable when the call returns. The pause each checkpoint causes on
 * the engine's thread is measured. Not thread-safe: the last stage's thread only (plus the writer's own
 * thread); the statistics may be read after the run.
 */
public final class Checkpointer
{
    /** A checkpoint taken while processing. */
    public static final byte RUNNING = 0;
    /** A checkpoint taken after the end of a bounded input was applied: the watermark is at +infinity. */
    public static final byte FINISHED = 1;
    /**
     * A checkpoint taken just before the end of a bounded input is applied: recovery applies the end
     * first, before reading any event appended since, so the end-of-input results it reproduces are the
     * ones already written.
     */
    public static final byte END_PENDING = 2;

    private final CheckpointWriter writer;
    private final String configuration;
    private final long interval;
    private final OperatorState aggregator;
    private final OutputJournalSink output;
    private final JournalReader events;
    private final boolean syncOutputs;
    private final StateBuffer buffer = new StateBuffer(1 << 16);
    private long sinceLast;
    private long applied;
    private long lastOffset = -1;
    private long taken;
    private long maxPauseNanos;
    private long totalPauseNanos;
    private long lastBytes;
    private long started;
    private long checkpointOffset = -1;
    /** Whether each applied heartbeat (with a time) is checkpointed at once: see {@link #checkpointEachHeartbeat()}. */
    private boolean eachHeartbeat;

    /**
     * @param store         where checkpoints go.
     * @param configuration the pipeline configuration, checked on recovery.
     * @param interval      events between checkpoints; 0 for checkpoints only at the end.
     * @param aggregator    the aggregation stage's state to checkpoint.
     * @param output        the output sink whose position the checkpoint covers.
     * @param events        the reader of the events the checkpoint covers (only its {@link JournalReader#sync()}
     *                      is used, from this thread).
     * @param syncOutputs   force the events and the output journal to disk before each checkpoint.
     * @param restored      the checkpoint the run resumed from, or null.
     * @param writerRunners starts the background writer on its own thread (see {@link CheckpointWriter}).
     */
    public Checkpointer(
        final CheckpointStore store,
        final String configuration,
        final long interval,
        final OperatorState aggregator,
        final OutputJournalSink output,
        final JournalReader events,
        final boolean syncOutputs,
        final Checkpoint restored,
        final BiFunction<Agent, IdleStrategy, AgentRunner> writerRunners)
    {
        this.writer = new CheckpointWriter(store, writerRunners);
        this.configuration = configuration;
        this.interval = interval;
        this.aggregator = aggregator;
        this.output = output;
        this.events = events;
        this.syncOutputs = syncOutputs;
        if (restored != null)
        {
            this.applied = restored.applied();
            this.lastOffset = restored.sourceOffset();
        }
    }

    /**
     * @param listener told at once, on the background writer's thread, when a checkpoint written there
     *                 fails (the engine thread learns of it only at its next checkpoint); set before the
     *                 first event.
     */
    public void onWriteFailure(final Consumer<Throwable> listener)
    {
        writer.onFailure(listener);
    }

    /**
     * @param listener told of each checkpoint once it is durable, on the thread that wrote it (see
     *                 {@link CheckpointListener}); set before the first event, or null for none.
     */
    public void onWritten(final CheckpointListener listener)
    {
        writer.onWritten(listener);
    }

    /**
     * Note one applied event, and checkpoint if the interval is reached.
     *
     * @param offset the event's journal offset.
     */
    public void afterEvent(final long offset)
    {
        applied++;
        lastOffset = offset;
        if (interval > 0 && ++sinceLast >= interval && writer.isIdle() && !output.holdsOlderOutputs())
        {
            snapshot(RUNNING);
            writer.submit(buffer, checkpointOffset);
            account();
        }
    }

    /**
     * Note one event the pipeline's filter rejected: the next checkpoint covers its offset; it is no applied
     * event, but it counts towards the interval, which is in journal events.
     *
     * @param offset the event's journal offset.
     */
    public void afterFiltered(final long offset)
    {
        lastOffset = offset;
        if (interval > 0 && ++sinceLast >= interval && writer.isIdle() && !output.holdsOlderOutputs())
        {
            snapshot(RUNNING);
            writer.submit(buffer, checkpointOffset);
            account();
        }
    }

    /**
     * Checkpoint after each applied heartbeat that has a time, at once and durably ({@link #take(byte)}), besides
     * every {@code interval} events: a run whose heartbeats are not reproducible from its journal (a Kafka
     * partition's mirror, rebuilt from the checkpoint on every takeover) records each one's watermark this way.
     * Set before the first event.
     */
    public void checkpointEachHeartbeat()
    {
        this.eachHeartbeat = true;
    }

    /**
     * Note one applied heartbeat: the next checkpoint covers its offset, but it is no applied event and
     * does not count towards the interval. With {@link #checkpointEachHeartbeat()} a heartbeat with a time is
     * checkpointed now.
     *
     * @param offset the heartbeat's journal offset.
     * @param timed  false for a table row's position slot, which has no time and moves no watermark.
     */
    public void afterHeartbeat(final long offset, final boolean timed)
    {
        lastOffset = offset;
        if (eachHeartbeat && timed)
        {
            take(RUNNING);
        }
    }

    /**
     * Checkpoint now, after the checkpoint in flight, if any; durable when this returns. Not while a rebuild is
     * still verifying the outputs an older Weir wrote ({@link OutputJournalSink#holdsOlderOutputs()}): a run
     * resumed from such a checkpoint would verify them in this Weir's order; the next run rebuilds instead.
     *
     * @param phase {@link #RUNNING}, {@link #END_PENDING} or {@link #FINISHED}.
     */
    public void take(final byte phase)
    {
        if (output.holdsOlderOutputs())
        {
            return;
        }
        writer.awaitIdle();
        snapshot(phase);
        writer.writeNow(buffer, checkpointOffset);
        account();
    }

    /**
     * Wait for the checkpoint in flight, if any, and stop the background writer.
     */
    public void close()
    {
        try
        {
            writer.awaitIdle();
        }
        finally
        {
            writer.close();
        }
    }

    private void snapshot(final byte phase)
    {
        started = System.nanoTime();
        sinceLast = 0;
        if (syncOutputs)
        {
            events.sync(); // every event up to lastOffset was appended before it was read: all are forced
            output.sync();
        }
        buffer.clear();
        CheckpointCodec.write(buffer, configuration, lastOffset, output.position(), applied, phase, System.currentTimeMillis(), aggregator);
        lastBytes = buffer.written().remaining();
        checkpointOffset = lastOffset;
    }

    private void account()
    {
        final long pause = System.nanoTime() - started;
        taken++;
        totalPauseNanos += pause;
        maxPauseNanos = Math.max(maxPauseNanos, pause);
    }

    /** @return the journal offset the last checkpoint of this run covers, or -1. */
    public long checkpointOffset()
    {
        return checkpointOffset;
    }

    /** @return checkpoints taken by this run. */
    public long taken()
    {
        return taken;
    }

    /** @return the longest pause a checkpoint caused, ns. */
    public long maxPauseNanos()
    {
        return maxPauseNanos;
    }

    /** @return the mean pause, ns. */
    public long meanPauseNanos()
    {
        return taken == 0 ? 0 : totalPauseNanos / taken;
    }

    /** @return the size of the last checkpoint, bytes. */
    public long lastBytes()
    {
        return lastBytes;
    }
}
