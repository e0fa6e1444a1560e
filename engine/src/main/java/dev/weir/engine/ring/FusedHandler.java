package dev.weir.engine.ring;

import com.lmax.disruptor.EventHandler;
import dev.weir.engine.operator.WindowAggregator;
import dev.weir.engine.operator.WindowAssigner;

/**
 * Both stages, assignment then aggregation and firing, on one consumer thread: the fused layout.
 * Signals {@link RunCompletion} when it has applied the end of input.
 * Not thread-safe: the Disruptor calls it from one thread.
 */
public final class FusedHandler implements EventHandler<EventSlot>
{
    private final WindowAssigner assigner;
    private final WindowAggregator aggregator;
    private final RunCompletion completion;

    /**
     * @param assigner   the first stage.
     * @param aggregator the second stage.
     * @param completion signalled at the end of input.
     */
    public FusedHandler(final WindowAssigner assigner, final WindowAggregator aggregator, final RunCompletion completion)
    {
        this.assigner = assigner;
        this.aggregator = aggregator;
        this.completion = completion;
    }

    @Override
    public void onEvent(final EventSlot slot, final long sequence, final boolean endOfBatch)
    {
        assigner.assign(slot);
        aggregator.apply(slot);
        if (slot.type == EventSlot.END_OF_INPUT)
        {
            completion.progress(slot.offset, sequence);
            completion.complete();
        }
        else if (endOfBatch)
        {
            completion.progress(slot.offset, sequence);
        }
    }
}
