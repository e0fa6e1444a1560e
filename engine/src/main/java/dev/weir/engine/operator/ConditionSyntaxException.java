package dev.weir.engine.operator;

/**
 * An early condition's text that {@link WindowConditions#parse} cannot read: the message is one line that
 * names the position (1-based character) where reading stopped. Immutable.
 */
public final class ConditionSyntaxException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    private final int position;

    /**
     * @param text     the condition.
     * @param position 1-based character position of the error.
     * @param problem  what is wrong there.
     */
    ConditionSyntaxException(final String text, final int position, final String problem)
    {
        super("early condition '" + text + "' at position " + position + ": " + problem);
        this.position = position;
    }

    /** @return the 1-based character position where reading stopped. */
    public int position()
    {
        return position;
    }
}
