package dev.weir.engine.aggregate;

/**
 * A node of a result expression's tree ({@link ResultExpression}): evaluated over a window's state, it either has a
 * value, unscaled at its {@link #scale()}, or is empty (an empty call, a division by zero, a value that does not fit
 * a long). The nodes are in {@link ResultNodes}.
 * <p>
 * Allocation-free. Not thread-safe: {@link #value()} is scratch; one owner thread.
 */
abstract class ResultNode
{
    private final int scale;
    /** The value of the last {@link #evaluate} that returned true; set by it. */
    long value;

    /** @param scale the scale of its values, 0 to 18. */
    ResultNode(final int scale)
    {
        this.scale = scale;
    }

    /**
     * @param state the result expression's whole state.
     * @return true if the node has a value ({@link #value()}), false if it is empty.
     */
    abstract boolean evaluate(AggregationState state);

    /** @return the value of the last {@link #evaluate} that returned true. */
    final long value()
    {
        return value;
    }

    /** @return the scale of its values, 0 to 18; constant. */
    final int scale()
    {
        return scale;
    }
}
