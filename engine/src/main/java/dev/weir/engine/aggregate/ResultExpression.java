package dev.weir.engine.aggregate;

/**
 * A named aggregate that is not a single call, e.g. {@code vwap=sum(price*qty)/sum(qty)}: the calls it names (an
 * earlier aggregate's inlined), each keeping its own part of the state, one after the other, and a tree of
 * {@link ResultNode}s over their results, evaluated when the window fires. Each step of the tree is exact and must
 * fit a long at its scale; an empty call, a division by zero or a step that does not fit makes the result empty.
 * <p>
 * Allocation-free. Not thread-safe: its nodes' scratch; the engine's last-stage thread.
 */
final class ResultExpression implements Aggregation
{
    private final String name;
    private final Aggregation[] calls;
    private final int[] starts;
    private final int stateLongs;
    private final ResultNode root;
    private final AggregationState part = new AggregationState();
    private final AggregationState otherPart = new AggregationState();

    /**
     * @param name   its name in the configuration.
     * @param calls  the calls the tree reads, their state parts in this order.
     * @param starts where each call's part starts.
     * @param root   the tree, its calls' nodes reading the same parts.
     */
    ResultExpression(final String name, final Aggregation[] calls, final int[] starts, final ResultNode root)
    {
        this.name = name;
        this.calls = calls.clone();
        this.starts = starts.clone();
        this.stateLongs = Math.max(1, calls.length == 0 ? 0 : starts[calls.length - 1] + calls[calls.length - 1].stateLongs());
        this.root = root;
    }

    @Override
    public String name()
    {
        return name;
    }

    @Override
    public int stateLongs()
    {
        return stateLongs;
    }

    @Override
    public boolean readsInputs()
    {
        return true;
    }

    @Override
    public void init(final AggregationState state)
    {
        state.set(0, 0); // a result of constants keeps one unused long
        for (int i = 0; i < calls.length; i++)
        {
            calls[i].init(part.within(state, starts[i], calls[i].stateLongs()));
        }
    }

    @Override
    public void add(final AggregationState state, final long value)
    {
        throw new UnsupportedOperationException("a named aggregate reads the event's inputs");
    }

    @Override
    public void add(final AggregationState state, final long value, final EventColumns event)
    {
        for (int i = 0; i < calls.length; i++)
        {
            calls[i].add(part.within(state, starts[i], calls[i].stateLongs()), value, event);
        }
    }

    @Override
    public void merge(final AggregationState into, final AggregationState from)
    {
        for (int i = 0; i < calls.length; i++)
        {
            calls[i].merge(part.within(into, starts[i], calls[i].stateLongs()), otherPart.within(from, starts[i], calls[i].stateLongs()));
        }
    }

    @Override
    public long result(final AggregationState state)
    {
        return root.evaluate(state) ? root.value() : 0;
    }

    @Override
    public boolean hasValue(final AggregationState state)
    {
        return root.evaluate(state);
    }

    @Override
    public String toString()
    {
        return name;
    }
}
