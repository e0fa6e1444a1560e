package dev.weir.engine.aggregate;

/**
 * A list of named aggregates ({@link NamedAggregates#parse}) that cannot be read or bound: a syntax error, an
 * unknown function or column, a reserved or repeated name, too many aggregates, a scale over 18. The message is
 * one line quoting the whole list, saying what is wrong and at which 1-based character; {@link #position()} is
 * that character, 0-based (an error inside a value or filter is placed in the whole list). Immutable.
 */
public final class AggregateSyntaxException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    private final int position;

    /**
     * @param list     the whole list of named aggregates.
     * @param position 0-based index of the character where the problem is.
     * @param problem  what is wrong there, e.g. {@code unknown function 'median'}.
     * @param expected what was expected there, or null.
     */
    AggregateSyntaxException(final String list, final int position, final String problem, final String expected)
    {
        super("aggregates '" + list + "': " + problem + " at position " + (position + 1) + (expected == null ? "" : ": " + expected));
        this.position = position;
    }

    /** @return the 0-based index of the character where the problem is (the list's length at its end). */
    public int position()
    {
        return position;
    }
}
