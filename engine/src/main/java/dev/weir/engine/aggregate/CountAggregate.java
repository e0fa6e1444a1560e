package dev.weir.engine.aggregate;

/**
 * {@code count()}: how many of a window's events match the call's filter; 0 when none. One long of state.
 * Stateless and thread-safe.
 */
final class CountAggregate extends CallAggregate
{

    /**
     * @param name   its name in the configuration.
     * @param filter the filter bit the events must match, or -1 for none.
     */
    CountAggregate(final String name, final int filter)
    {
        super(name, filter);
    }

    @Override
    public int stateLongs()
    {
        return 1;
    }

    @Override
    public void init(final AggregationState state)
    {
        state.set(0, 0);
    }

    @Override
    void accept(final AggregationState state, final EventColumns event)
    {
        state.set(0, state.get(0) + 1);
    }

    @Override
    public void merge(final AggregationState into, final AggregationState from)
    {
        into.set(0, into.get(0) + from.get(0));
    }

    @Override
    public long result(final AggregationState state)
    {
        return state.get(0);
    }
}
