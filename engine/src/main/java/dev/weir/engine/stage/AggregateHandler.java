package dev.weir.engine.stage;

import dev.weir.engine.source.EventSlot;
import com.lmax.disruptor.EventHandler;

/**
 * The last stage (aggregation, firing, checkpointing) as a Disruptor handler for the staged layout: its
 * own thread, after the {@link AssignHandler}. Not thread-safe: the Disruptor calls it from one thread.
 */
public final class AggregateHandler implements EventHandler<EventSlot>
{
    private final LastStage last;

    /**
     * @param last the last stage.
     */
    public AggregateHandler(final LastStage last)
    {
        this.last = last;
    }

    @Override
    public void onEvent(final EventSlot slot, final long sequence, final boolean endOfBatch)
    {
        last.onSlot(slot, sequence, endOfBatch);
    }
}
