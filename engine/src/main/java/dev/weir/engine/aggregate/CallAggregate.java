package dev.weir.engine.aggregate;

/**
 * One function call of a named aggregate ({@code sum(amount) filter (where approved)}): a window-slot state machine
 * that reads the event's aggregate inputs and sees only the events matching its filter. Subclasses say what they
 * keep of a matching event ({@link #accept}). Stateless and thread-safe.
 */
abstract class CallAggregate implements Aggregation
{
    private final String name;
    private final int filter;

    /**
     * @param name   its name in the configuration.
     * @param filter the filter bit the events must match ({@link EventColumns#matched}), or -1 for none.
     */
    CallAggregate(final String name, final int filter)
    {
        this.name = name;
        this.filter = filter;
    }

    @Override
    public final String name()
    {
        return name;
    }

    @Override
    public final boolean readsInputs()
    {
        return true;
    }

    @Override
    public final void add(final AggregationState state, final long value)
    {
        throw new UnsupportedOperationException("a named aggregate reads the event's inputs");
    }

    @Override
    public final void add(final AggregationState state, final long value, final EventColumns event)
    {
        if (filter < 0 || event.matched(filter))
        {
            accept(state, event);
        }
    }

    /**
     * @param state a window's state.
     * @param event an event of the window that matches the filter.
     */
    abstract void accept(AggregationState state, EventColumns event);

    @Override
    public String toString()
    {
        return name;
    }
}
