package dev.weir.engine.expr;

/**
 * An expression that {@link Expressions} cannot compile: a syntax error, an unknown column, a type
 * mismatch or a number that does not fit. The message is one line naming the expression, the 1-based
 * character where the problem is, and what was expected there; {@link #position()} is that character,
 * 0-based. Immutable.
 */
public final class ExpressionException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    private final int position;

    /**
     * @param text     the expression.
     * @param position 0-based index of the character where the problem is.
     * @param problem  what is wrong there.
     */
    ExpressionException(final String text, final int position, final String problem)
    {
        super("expression '" + text + "' at position " + (position + 1) + ": " + problem);
        this.position = position;
    }

    /** @return the 0-based index of the character where the problem is (the text's length at its end). */
    public int position()
    {
        return position;
    }
}
