package dev.weir.engine.stage;

import dev.weir.engine.source.EventSlot;
import dev.weir.engine.checkpoint.Checkpointer;
import dev.weir.engine.emit.AppliedListener;
import dev.weir.engine.operator.WindowAggregator;

/**
 * The work of the pipeline's last stage for one slot: apply it to the aggregation stage, checkpoint when
 * due, and report progress and completion. Shared by the fused and the staged layouts.
 * Not thread-safe: the last stage's thread only.
 */
public final class LastStage
{
    private final WindowAggregator aggregator;
    private final Checkpointer checkpointer;
    private final RunCompletion completion;
    private final AppliedListener applied;
    private final Runnable afterBatch;

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
        this.afterBatch = afterBatch;
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
                    afterBatch();
                    completion.progress(slot.offset, sequence);
                }
                break;
            case EventSlot.HEARTBEAT:
                aggregator.apply(slot);
                if (checkpointer != null)
                {
                    checkpointer.afterHeartbeat(slot.offset);
                }
                if (endOfBatch)
                {
                    afterBatch();
                    completion.progress(slot.offset, sequence);
                }
                break;
            case EventSlot.FILTERED:
                aggregator.apply(slot);
                if (checkpointer != null)
                {
                    checkpointer.afterFiltered(slot.offset);
                }
                if (endOfBatch)
                {
                    afterBatch();
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
                afterBatch();
                completion.progress(slot.offset, sequence);
                completion.complete();
                break;
            default:
                if (checkpointer != null)
                {
                    checkpointer.take(Checkpointer.RUNNING);
                }
                afterBatch();
                completion.complete();
                break;
        }
    }

    private void afterBatch()
    {
        if (afterBatch != null)
        {
            afterBatch.run();
        }
    }
}
