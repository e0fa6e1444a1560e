package dev.weir.engine.aggregate;

import dev.weir.engine.expr.EventFilter;
import dev.weir.engine.expr.EventValue;
import dev.weir.journal.schema.EventView;

/**
 * What named aggregates read of each event, computed once per event before it enters the ring: the value of every
 * different input (a call's value, approx_distinct's column) and the verdict of every different filter, as a bitmask.
 * The aggregates' state machines read them back through {@link EventColumns#input} and {@link EventColumns#matched}.
 * <p>
 * Allocation-free. Not thread-safe: one owner thread (the source stage); its compiled expressions are that thread's.
 */
public final class AggregateInputs
{
    private final EventValue[] values;
    private final EventFilter[] filters;
    private boolean wrapped;

    AggregateInputs(final EventValue[] values, final EventFilter[] filters)
    {
        assert filters.length <= Long.SIZE : "one bit per filter";
        this.values = values;
        this.filters = filters;
    }

    /** @return how many input longs {@link #fill} writes. */
    public int inputCount()
    {
        return values.length;
    }

    /**
     * Evaluate every aggregate's values into {@code inputs[0 .. inputCount)} and its filters. Allocation-free.
     *
     * @param event  the event (joined columns included), valid during the call only.
     * @param inputs where to write the values: at least {@link #inputCount()} longs.
     * @return the filter bitmask: bit f set when filter f matched.
     */
    public long fill(final EventView event, final long[] inputs)
    {
        boolean anyWrapped = false;
        for (int i = 0; i < values.length; i++)
        {
            inputs[i] = values[i].value(event);
            anyWrapped |= values[i].wrapped();
        }
        wrapped = anyWrapped;
        long matched = 0;
        for (int f = 0; f < filters.length; f++)
        {
            if (filters[f].test(event))
            {
                matched |= 1L << f;
            }
        }
        return matched;
    }

    /** @return true if the last {@link #fill}'s arithmetic wrapped (a value's; see {@link EventValue#wrapped()}). */
    public boolean wrapped()
    {
        return wrapped;
    }
}
