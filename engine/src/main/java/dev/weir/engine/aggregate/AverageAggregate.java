package dev.weir.engine.aggregate;

/**
 * {@code avg(v)}: the sum of the values of a window's matching events (wrapping, as {@code sum}) over how many
 * they are, at scale {@code max(6, scale(v))}, rounded half-even; empty when none matches (or when the mean does not
 * fit a long at that scale). Its state is a {@code sum}'s: the sum and the count.
 * <p>
 * Not thread-safe: its arithmetic's scratch; the engine's last-stage thread.
 */
final class AverageAggregate extends CallAggregate
{
    private final SumAggregate sum;
    private final int valueScale;
    private final int scale;
    private final ScaledArithmetic arithmetic = new ScaledArithmetic();

    /**
     * @param name       its name in the configuration.
     * @param input      the index of its value among the event's inputs.
     * @param filter     the filter bit the events must match, or -1 for none.
     * @param valueScale the scale of the values.
     */
    AverageAggregate(final String name, final int input, final int filter, final int valueScale)
    {
        super(name, filter);
        this.sum = new SumAggregate(name, input, -1);
        this.valueScale = valueScale;
        this.scale = scaleOf(valueScale);
    }

    /** @return the scale of the mean of values at {@code valueScale}. */
    static int scaleOf(final int valueScale)
    {
        return Math.max(6, valueScale);
    }

    @Override
    public int stateLongs()
    {
        return sum.stateLongs();
    }

    @Override
    public void init(final AggregationState state)
    {
        sum.init(state);
    }

    @Override
    void accept(final AggregationState state, final EventColumns event)
    {
        sum.add(state, 0, event);
    }

    @Override
    public void merge(final AggregationState into, final AggregationState from)
    {
        sum.merge(into, from);
    }

    @Override
    public long result(final AggregationState state)
    {
        return hasValue(state) ? arithmetic.value() : 0;
    }

    @Override
    public boolean hasValue(final AggregationState state)
    {
        final long count = sum.count(state);
        return count != 0 && arithmetic.divide(sum.result(state), valueScale, count, 0, scale);
    }
}
