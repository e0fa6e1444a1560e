package dev.weir.engine.aggregate;

import dev.weir.journal.schema.EventView;

/**
 * What named aggregates read of each event: their values and their filters' verdicts, computed once per event.
 * <p>
 * Not thread-safe: one owner thread (the source stage).
 */
public final class AggregateInputs
{
    private AggregateInputs()
    {
    }

    /** @return how many input longs {@link #fill} writes. */
    public int inputCount()
    {
        throw new UnsupportedOperationException("i33-parse: not yet");
    }

    /**
     * Evaluate every aggregate's values into {@code inputs[0 .. inputCount)} and its filters. Allocation-free.
     *
     * @param event  the event (joined columns included), valid during the call only.
     * @param inputs where to write the values.
     * @return the filter bitmask: bit f set when filter f matched.
     */
    public long fill(final EventView event, final long[] inputs)
    {
        throw new UnsupportedOperationException("i33-parse: not yet");
    }

    /** @return true if the last {@link #fill}'s arithmetic wrapped. */
    public boolean wrapped()
    {
        throw new UnsupportedOperationException("i33-parse: not yet");
    }
}
