package dev.weir.engine.stage;

import dev.weir.engine.source.EventSlot;
import com.lmax.disruptor.EventHandler;
import dev.weir.engine.operator.WindowAssigner;

/**
 * The window-assignment stage as a Disruptor handler, for the staged layout (its own thread).
 * Not thread-safe: the Disruptor calls it from one thread.
 */
public final class AssignHandler implements EventHandler<EventSlot>
{
    private final WindowAssigner assigner;

    /**
     * @param assigner the stage.
     */
    public AssignHandler(final WindowAssigner assigner)
    {
        this.assigner = assigner;
    }

    @Override
    public void onEvent(final EventSlot slot, final long sequence, final boolean endOfBatch)
    {
        assigner.assign(slot);
    }
}
