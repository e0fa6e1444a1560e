package dev.weir.engine.aggregate;

import java.util.List;

import dev.weir.engine.expr.ExpressionColumns;

/**
 * A parsed list of named aggregates, e.g. {@code open=first(price),vwap=sum(price*qty)/sum(qty),trades=count()}:
 * syntax only, no schema ({@link #bind} checks columns, types and scales).
 * <p>
 * Immutable; thread-safe.
 */
public final class NamedAggregates
{
    /** The most named aggregates of one pipeline: a stored result holds one long each, then the presence mask. */
    public static final int MAX = 15;

    private NamedAggregates()
    {
    }

    /**
     * @param list the list, e.g. {@code total=sum(amount),n=count()}.
     * @return the parsed list.
     * @throws AggregateSyntaxException if it is not a list of named aggregates.
     */
    public static NamedAggregates parse(final String list)
    {
        throw new UnsupportedOperationException("i33-parse: not yet");
    }

    /** @return how many named aggregates, 1 to {@link #MAX}. */
    public int size()
    {
        throw new UnsupportedOperationException("i33-parse: not yet");
    }

    /** @return their names, in order. */
    public List<String> names()
    {
        throw new UnsupportedOperationException("i33-parse: not yet");
    }

    /**
     * @param name a name.
     * @return its index in the list, or -1 if none.
     */
    public int indexOf(final String name)
    {
        throw new UnsupportedOperationException("i33-parse: not yet");
    }

    /** @return the normalised list: stable, part of the configuration a checkpoint must match. */
    public String text()
    {
        throw new UnsupportedOperationException("i33-parse: not yet");
    }

    /**
     * @param columns the columns values and filters may name.
     * @return the list bound to them.
     * @throws IllegalArgumentException if a column is unknown or of the wrong type, a scale is over 18, ...
     */
    public BoundAggregates bind(final ExpressionColumns columns)
    {
        throw new UnsupportedOperationException("i33-parse: not yet");
    }
}
