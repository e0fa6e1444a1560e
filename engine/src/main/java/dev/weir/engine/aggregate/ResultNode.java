package dev.weir.engine.aggregate;

/**
 * A node of a result expression's tree ({@link ResultExpression}): evaluated over a window's state, it either has a
 * value, unscaled at its {@link #scale()}, or is empty (an empty call, a division by zero, a value that does not fit
 * a long). The nodes are in {@link ResultNodes}.
 * <p>
 * Allocation-free. Not thread-safe: {@link #value()} is scratch; one owner thread.
 */
interface ResultNode
{
    /**
     * @param state the result expression's whole state.
     * @return true if the node has a value ({@link #value()}), false if it is empty.
     */
    boolean evaluate(AggregationState state);

    /** @return the value of the last {@link #evaluate} that returned true. */
    long value();

    /** @return the scale of its values, 0 to 18; constant. */
    int scale();
}
