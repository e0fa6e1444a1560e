package dev.weir.engine.aggregate;

/**
 * {@code sum(v)}: the sum of the values of a window's events that match the call's filter, wrapping as 64-bit two's
 * complement (as the engine's sum does); empty when none matches. Two longs of state: the sum and how many were added.
 * Stateless and thread-safe.
 */
final class SumAggregate extends CallAggregate
{
    private static final int SUM = 0;
    private static final int COUNT = 1;

    private final int input;

    /**
     * @param name   its name in the configuration.
     * @param input  the index of its value among the event's inputs.
     * @param filter the filter bit the events must match, or -1 for none.
     */
    SumAggregate(final String name, final int input, final int filter)
    {
        super(name, filter);
        this.input = input;
    }

    @Override
    public int stateLongs()
    {
        return 2;
    }

    @Override
    public void init(final AggregationState state)
    {
        state.set(SUM, 0);
        state.set(COUNT, 0);
    }

    @Override
    void accept(final AggregationState state, final EventColumns event)
    {
        state.set(SUM, state.get(SUM) + event.input(input));
        state.set(COUNT, state.get(COUNT) + 1);
    }

    @Override
    public void merge(final AggregationState into, final AggregationState from)
    {
        into.set(SUM, into.get(SUM) + from.get(SUM));
        into.set(COUNT, into.get(COUNT) + from.get(COUNT));
    }

    @Override
    public long result(final AggregationState state)
    {
        return state.get(SUM);
    }

    @Override
    public boolean hasValue(final AggregationState state)
    {
        return state.get(COUNT) != 0;
    }

    /**
     * @param state a window's state.
     * @return how many values were added.
     */
    long count(final AggregationState state)
    {
        return state.get(COUNT);
    }
}
