package dev.weir.engine.expr;

import dev.weir.journal.schema.EventView;

/**
 * A compiled value expression ({@link Expressions#value}): its root node, and the flag its operations raise
 * when one wraps, so {@link #wrapped()} tells whether the last value did. {@link #toString()} is the
 * normalised text.
 * <p>
 * Evaluating allocates nothing. Not thread-safe: one owner thread (the flag is its scratch).
 */
final class CheckedValue implements EventValue
{
    private final ValueNode root;
    private final WrapFlag flag;

    /**
     * @param root the expression.
     * @param flag the flag every operation of {@code root} raises.
     */
    CheckedValue(final ValueNode root, final WrapFlag flag)
    {
        this.root = root;
        this.flag = flag;
    }

    @Override
    public long value(final EventView event)
    {
        flag.wrapped = 0;
        return root.value(event);
    }

    @Override
    public boolean wrapped()
    {
        return flag.wrapped != 0;
    }

    @Override
    public int scale()
    {
        return root.scale();
    }

    @Override
    public String toString()
    {
        return root.toString();
    }
}
