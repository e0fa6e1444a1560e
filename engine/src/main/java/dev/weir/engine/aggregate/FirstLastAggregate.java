package dev.weir.engine.aggregate;

/**
 * {@code first(v)} or {@code last(v)}: the value of the window's matching event with the smallest or greatest event
 * time; on equal times, the earlier or later in journal order. Events and merged sessions compare by (time, offset),
 * so the result is the same whatever order they arrive in. Three longs of state: the value, its event's time and
 * journal offset (-1: empty, no event matched). Stateless and thread-safe.
 */
final class FirstLastAggregate extends CallAggregate
{
    private static final int VALUE = 0;
    private static final int TIME = 1;
    private static final int OFFSET = 2;
    private static final long EMPTY = -1;

    private final int input;
    private final boolean last;

    /**
     * @param name   its name in the configuration.
     * @param input  the index of its value among the event's inputs.
     * @param filter the filter bit the events must match, or -1 for none.
     * @param last   true for {@code last}, false for {@code first}.
     */
    FirstLastAggregate(final String name, final int input, final int filter, final boolean last)
    {
        super(name, filter);
        this.input = input;
        this.last = last;
    }

    @Override
    public int stateLongs()
    {
        return 3;
    }

    @Override
    public void init(final AggregationState state)
    {
        state.set(VALUE, 0);
        state.set(TIME, 0);
        state.set(OFFSET, EMPTY);
    }

    @Override
    void accept(final AggregationState state, final EventColumns event)
    {
        offer(state, event.input(input), event.eventTime(), event.offset());
    }

    @Override
    public void merge(final AggregationState into, final AggregationState from)
    {
        if (from.get(OFFSET) != EMPTY)
        {
            offer(into, from.get(VALUE), from.get(TIME), from.get(OFFSET));
        }
    }

    private void offer(final AggregationState state, final long value, final long time, final long offset)
    {
        final long heldOffset = state.get(OFFSET);
        if (heldOffset == EMPTY || wins(time, offset, state.get(TIME), heldOffset))
        {
            state.set(VALUE, value);
            state.set(TIME, time);
            state.set(OFFSET, offset);
        }
    }

    /** @return true if the event at (time, offset) comes after (last) or before (first) the held one. */
    private boolean wins(final long time, final long offset, final long heldTime, final long heldOffset)
    {
        final int order = time != heldTime ? Long.compare(time, heldTime) : Long.compare(offset, heldOffset);
        return last ? order > 0 : order < 0;
    }

    @Override
    public long result(final AggregationState state)
    {
        return state.get(VALUE);
    }

    @Override
    public boolean hasValue(final AggregationState state)
    {
        return state.get(OFFSET) != EMPTY;
    }
}
