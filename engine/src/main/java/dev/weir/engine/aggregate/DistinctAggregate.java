package dev.weir.engine.aggregate;

/**
 * {@code approx_distinct(c)}: the {@link ApproxDistinct} estimate of how many distinct raw longs (a string's
 * dictionary id) the column has over a window's matching events; 0 when none matches. Its state is the sketch's.
 * Stateless and thread-safe.
 */
final class DistinctAggregate extends CallAggregate
{
    private static final ApproxDistinct SKETCH = new ApproxDistinct();

    private final int input;

    /**
     * @param name   its name in the configuration.
     * @param input  the index of the column's raw long among the event's inputs.
     * @param filter the filter bit the events must match, or -1 for none.
     */
    DistinctAggregate(final String name, final int input, final int filter)
    {
        super(name, filter);
        this.input = input;
    }

    @Override
    public int stateLongs()
    {
        return SKETCH.stateLongs();
    }

    @Override
    public void init(final AggregationState state)
    {
        SKETCH.init(state);
    }

    @Override
    void accept(final AggregationState state, final EventColumns event)
    {
        SKETCH.add(state, event.input(input));
    }

    @Override
    public void merge(final AggregationState into, final AggregationState from)
    {
        SKETCH.merge(into, from);
    }

    @Override
    public long result(final AggregationState state)
    {
        return SKETCH.result(state);
    }
}
