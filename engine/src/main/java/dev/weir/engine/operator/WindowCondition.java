package dev.weir.engine.operator;

/**
 * When an open window emits its one early row: a predicate over its current aggregate, tested after
 * each event added to a window whose end the watermark has not passed, until it first holds (then the
 * window emits its early row and is never tested again, across re-firings and session merges).
 * <p>
 * {@link #test} runs on the aggregation stage's thread for every such event: it must not allocate or
 * block, and must depend only on the view (so a replay emits the same early rows). {@link #name()} is part
 * of the configuration a checkpoint must match: give two different conditions different names.
 * {@link WindowConditions#parse} makes one from text such as {@code sum>=5000.00 and count>3}.
 * Implementations must be thread-safe in the sense of being immutable.
 */
@FunctionalInterface
public interface WindowCondition
{
    /**
     * @param window the window's current aggregate; valid only during this call.
     * @return true if the window should emit its early row now.
     */
    boolean test(WindowView window);

    /**
     * @return the columns the condition reads of the event being added ({@link WindowView#column(int)}), by index
     *         of the pipeline's {@link dev.weir.engine.expr.ExpressionColumns}, ascending; the engine copies them
     *         into each event's ring slot. By default none. A new array each call (configuration time only).
     */
    default int[] columns()
    {
        return new int[0];
    }

    /**
     * @return a name that identifies the condition in the configuration a checkpoint stores; by default
     *         {@code custom}.
     */
    default String name()
    {
        return "custom";
    }
}
