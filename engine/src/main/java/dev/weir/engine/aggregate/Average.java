package dev.weir.engine.aggregate;

/**
 * The mean of the values, rounded toward negative infinity ({@code floorDiv(sum, count)}), 0 for no
 * values. Two longs of state: sum (wrapping, as the engine's) and count. Stateless and thread-safe.
 */
public final class Average implements Aggregation
{
    private static final int SUM = 0;
    private static final int COUNT = 1;

    @Override
    public String name()
    {
        return "average";
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
    public void add(final AggregationState state, final long value)
    {
        state.set(SUM, state.get(SUM) + value);
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
        final long count = state.get(COUNT);
        return count == 0 ? 0 : Math.floorDiv(state.get(SUM), count);
    }
}
