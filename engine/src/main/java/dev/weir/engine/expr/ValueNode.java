package dev.weir.engine.expr;

/**
 * A node of a compiled value expression: a column, a constant or an operator over nodes. Its value is a
 * long at {@link #scale()} (a decimal's unscaled long); arithmetic wraps as 64-bit two's complement, and an
 * operation that wraps raises its expression's {@link WrapFlag}. {@link #toString()} is the normalised text.
 * <p>
 * Immutable but for that flag; evaluating allocates nothing. One owner thread per compiled expression.
 */
abstract class ValueNode extends RenderedNode implements EventValue
{
    static final int ADDITIVE = 1;
    static final int MULTIPLICATIVE = 2;
    static final int UNARY = 3;
    static final int ATOM = 4;

    private final int scale;

    ValueNode(final int scale)
    {
        assert scale >= 0 && scale <= dev.weir.journal.schema.JournalSchema.MAX_SCALE : scale;
        this.scale = scale;
    }

    @Override
    public final int scale()
    {
        return scale;
    }

    /** @return true if the value does not depend on the event (a literal, or literals only). */
    boolean isConstant()
    {
        return false;
    }

    /** @return how tightly the node's text binds: {@link #ADDITIVE} to {@link #ATOM}. */
    abstract int precedence();
}
