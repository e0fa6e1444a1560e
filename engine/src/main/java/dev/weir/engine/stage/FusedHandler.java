package dev.weir.engine.stage;

import dev.weir.engine.source.EventSlot;
import com.lmax.disruptor.EventHandler;
import dev.weir.engine.operator.WindowAssigner;

/**
 * Both stages, assignment then aggregation, firing and checkpointing, on one consumer thread: the
 * fused layout. Not thread-safe: the Disruptor calls it from one thread.
 */
public final class FusedHandler implements EventHandler<EventSlot>
{
    private final WindowAssigner assigner;
    private final LastStage last;

    /**
     * @param assigner the first stage.
     * @param last     the last stage.
     */
    public FusedHandler(final WindowAssigner assigner, final LastStage last)
    {
        this.assigner = assigner;
        this.last = last;
    }

    @Override
    public void onEvent(final EventSlot slot, final long sequence, final boolean endOfBatch)
    {
        assigner.assign(slot);
        last.onSlot(slot, sequence, endOfBatch);
    }
}
