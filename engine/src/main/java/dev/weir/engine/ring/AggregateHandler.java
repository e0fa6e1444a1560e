package dev.weir.engine.ring;

import com.lmax.disruptor.EventHandler;
import dev.weir.engine.operator.WindowAggregator;

/**
 * The aggregation-and-firing stage as a Disruptor handler, for the staged layout (its own thread,
 * after the {@link AssignHandler}). Signals {@link RunCompletion} when it has applied the end of input.
 * Not thread-safe: the Disruptor calls it from one thread.
 */
public final class AggregateHandler implements EventHandler<EventSlot>
{
    private final WindowAggregator aggregator;
    private final RunCompletion completion;

    /**
     * @param aggregator the stage.
     * @param completion signalled at the end of input.
     */
    public AggregateHandler(final WindowAggregator aggregator, final RunCompletion completion)
    {
        this.aggregator = aggregator;
        this.completion = completion;
    }

    @Override
    public void onEvent(final EventSlot slot, final long sequence, final boolean endOfBatch)
    {
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
