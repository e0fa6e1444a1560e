package dev.weir.engine.aggregate;

/**
 * {@code min(v)} or {@code max(v)}: the least or greatest value of a window's events that match the call's filter;
 * empty when none matches. Two longs of state: the extreme and whether there is one. Stateless and thread-safe.
 */
final class ExtremeAggregate extends CallAggregate
{
    private static final int EXTREME = 0;
    private static final int PRESENT = 1;

    private final int input;
    private final boolean greatest;

    /**
     * @param name     its name in the configuration.
     * @param input    the index of its value among the event's inputs.
     * @param filter   the filter bit the events must match, or -1 for none.
     * @param greatest true for {@code max}, false for {@code min}.
     */
    ExtremeAggregate(final String name, final int input, final int filter, final boolean greatest)
    {
        super(name, filter);
        this.input = input;
        this.greatest = greatest;
    }

    @Override
    public int stateLongs()
    {
        return 2;
    }

    @Override
    public void init(final AggregationState state)
    {
        state.set(EXTREME, 0);
        state.set(PRESENT, 0);
    }

    @Override
    void accept(final AggregationState state, final EventColumns event)
    {
        offer(state, event.input(input));
    }

    @Override
    public void merge(final AggregationState into, final AggregationState from)
    {
        if (from.get(PRESENT) != 0)
        {
            offer(into, from.get(EXTREME));
        }
    }

    private void offer(final AggregationState state, final long candidate)
    {
        final long current = state.get(EXTREME);
        if (state.get(PRESENT) == 0 || (greatest ? candidate > current : candidate < current))
        {
            state.set(EXTREME, candidate);
            state.set(PRESENT, 1);
        }
    }

    @Override
    public long result(final AggregationState state)
    {
        return state.get(EXTREME);
    }

    @Override
    public boolean hasValue(final AggregationState state)
    {
        return state.get(PRESENT) != 0;
    }
}
