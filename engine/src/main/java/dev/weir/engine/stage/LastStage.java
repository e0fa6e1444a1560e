package dev.weir.engine.stage;

import dev.weir.engine.source.EventSlot;
import dev.weir.engine.checkpoint.Checkpointer;
import dev.weir.engine.emit.AppliedListener;
import dev.weir.engine.operator.WindowAggregator;
import org.HdrHistogram.ValueRecorder;

/**
 * The work of the pipeline's last stage for one slot: apply it to the aggregation stage, checkpoint when
 * due, and report progress and completion; and add up the run's busy time ({@link #busyNanos()}). Shared by the
 * fused and the staged layouts.
 * Not thread-safe: the last stage's thread only.
 */
public final class LastStage
{
    private final WindowAggregator aggregator;
    private final Checkpointer checkpointer;
    private final RunCompletion completion;
    private final AppliedListener applied;
    private final Runnable afterBatch;
    /** The read stamp of the last slot applied since read-to-applied was last recorded, or 0. */
    private long unrecordedReadNanos;
    private final ValueRecorder readToApplied;
    /** The read stamp of the first slot of the batch being applied, or 0 between batches. */
    private long batchReadNanos;
    /** {@code System.nanoTime()} when the last batch had been applied, or 0. */
    private long lastAppliedNanos;
    private long busyNanos;

    /**
     * @param aggregator   the aggregation stage.
     * @param checkpointer takes checkpoints, or null when outputs are not durable.
     * @param completion   told of progress and completion.
     * @param applied      told of each event applied, or null.
     * @param afterBatch     run after the last slot available now, and at the end (publishes the live
     *                       counters), or null.
     */
    public LastStage(
        final WindowAggregator aggregator,
        final Checkpointer checkpointer,
        final RunCompletion completion,
        final AppliedListener applied,
        final Runnable afterBatch)
    {
        this(aggregator, checkpointer, completion, applied, afterBatch, null);
    }

    /**
     * @param aggregator    the aggregation stage.
     * @param checkpointer  takes checkpoints, or null when outputs are not durable.
     * @param completion    told of progress and completion.
     * @param applied       told of each event applied, or null.
     * @param afterBatch    run after the last slot available now, and at the end, or null.
     * @param readToApplied records, once per batch, the time from the publisher's read of the batch's last
     *                      slot ({@link EventSlot#readNanos}) to its having been applied; or null.
     */
    public LastStage(
        final WindowAggregator aggregator,
        final Checkpointer checkpointer,
        final RunCompletion completion,
        final AppliedListener applied,
        final Runnable afterBatch,
        final ValueRecorder readToApplied)
    {
        this.afterBatch = afterBatch;
        this.readToApplied = readToApplied;
        this.aggregator = aggregator;
        this.checkpointer = checkpointer;
        this.completion = completion;
        this.applied = applied;
    }

    /**
     * @param slot       the slot, already through the assignment stage.
     * @param sequence   its ring sequence.
     * @param endOfBatch true if it is the last slot available now.
     */
    public void onSlot(final EventSlot slot, final long sequence, final boolean endOfBatch)
    {
        switch (slot.type)
        {
            case EventSlot.EVENT:
                unrecordedReadNanos = slot.readNanos;
                batchStarts(slot);
                aggregator.apply(slot);
                if (applied != null)
                {
                    applied.onApplied(slot.offset);
                }
                if (checkpointer != null)
                {
                    checkpointer.afterEvent(slot.offset);
                }
                if (endOfBatch)
                {
                    batchApplied(slot);
                    completion.progress(slot.offset, sequence);
                }
                break;
            case EventSlot.HEARTBEAT:
                unrecordedReadNanos = slot.readNanos;
                batchStarts(slot);
                aggregator.apply(slot);
                if (checkpointer != null)
                {
                    checkpointer.afterHeartbeat(slot.offset, slot.eventTime != EventSlot.NO_TIME);
                }
                if (endOfBatch)
                {
                    batchApplied(slot);
                    completion.progress(slot.offset, sequence);
                }
                break;
            case EventSlot.FILTERED:
                unrecordedReadNanos = slot.readNanos;
                batchStarts(slot);
                aggregator.apply(slot);
                if (checkpointer != null)
                {
                    checkpointer.afterFiltered(slot.offset);
                }
                if (endOfBatch)
                {
                    batchApplied(slot);
                    completion.progress(slot.offset, sequence);
                }
                break;
            case EventSlot.END_OF_INPUT:
                if (checkpointer != null)
                {
                    checkpointer.take(Checkpointer.END_PENDING);
                }
                aggregator.apply(slot);
                if (checkpointer != null)
                {
                    checkpointer.take(Checkpointer.FINISHED);
                }
                recordUnrecorded();
                afterBatch();
                completion.progress(slot.offset, sequence);
                completion.complete();
                break;
            default:
                if (checkpointer != null)
                {
                    checkpointer.take(Checkpointer.RUNNING);
                }
                recordUnrecorded();
                afterBatch();
                completion.complete();
                break;
        }
    }

    /**
     * @return the run's busy time so far: the union, over its batches, of the time from the publisher's read of a
     *         batch's first slot to the batch's having been applied, ns (this stage's thread, or another once the
     *         run has stopped).
     */
    public long busyNanos()
    {
        return busyNanos;
    }

    private void batchStarts(final EventSlot slot)
    {
        if (batchReadNanos == 0)
        {
            batchReadNanos = slot.readNanos;
        }
    }

    /** The batch's last slot is applied: record its read-to-applied and busy times, then publish. */
    private void batchApplied(final EventSlot slot)
    {
        final long now = batchEnds();
        if (readToApplied != null)
        {
            assert slot.readNanos != 0 : "the publisher stamps every event, heartbeat and filtered slot";
            readToApplied.recordValue(now - slot.readNanos);
        }
        unrecordedReadNanos = 0;
        afterBatch();
    }

    /** Add the batch just applied to the busy time (not the time before its first slot was read, nor again the time an earlier batch covered). */
    private long batchEnds()
    {
        final long now = System.nanoTime();
        if (batchReadNanos != 0)
        {
            busyNanos += Math.max(0, now - Math.max(batchReadNanos, lastAppliedNanos));
            batchReadNanos = 0;
        }
        lastAppliedNanos = now;
        return now;
    }

    /**
     * A batch ends with the end of the input or a stop: record the read-to-applied time of its last event,
     * heartbeat or filtered slot, if the batch had one (a bounded run's events often reach the stage in
     * one batch with the end marker).
     */
    private void recordUnrecorded()
    {
        final long now = batchEnds();
        if (readToApplied != null && unrecordedReadNanos != 0)
        {
            readToApplied.recordValue(now - unrecordedReadNanos);
        }
        unrecordedReadNanos = 0;
    }

    private void afterBatch()
    {
        if (afterBatch != null)
        {
            afterBatch.run();
        }
    }
}
