package dev.weir.engine.expr;

/**
 * A node of a compiled filter: a comparison, an {@code in} list, or {@code and}, {@code or}, {@code not}
 * over nodes. {@link #toString()} is the normalised text.
 * <p>
 * One owner thread (a string literal caches its dictionary id); testing allocates nothing.
 */
abstract class FilterNode implements EventFilter
{
    static final int OR = 1;
    static final int AND = 2;
    static final int NOT = 3;
    static final int COMPARISON = 4;

    /** @return how tightly the node's text binds: {@link #OR} to {@link #COMPARISON}. */
    abstract int precedence();

    abstract void render(StringBuilder out);

    final void render(final StringBuilder out, final boolean parenthesised)
    {
        if (parenthesised)
        {
            out.append('(');
            render(out);
            out.append(')');
        }
        else
        {
            render(out);
        }
    }

    @Override
    public final String toString()
    {
        final StringBuilder out = new StringBuilder();
        render(out);
        return out.toString();
    }
}
