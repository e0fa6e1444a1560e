package dev.weir.engine.expr;

/** An expression that does not parse or type-check, with the 0-based position of the fault. Immutable. */
public final class ExpressionException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    private final int position;

    /**
     * @param message  one line naming what was expected.
     * @param position the 0-based character index of the fault in the expression's text.
     */
    public ExpressionException(final String message, final int position)
    {
        super(message);
        this.position = position;
    }

    /** @return the 0-based character index of the fault in the expression's text. */
    public int position()
    {
        return position;
    }
}
