package dev.weir.engine.expr;

/**
 * What every node of a compiled expression shares: how tightly its text binds, and its normalised text,
 * parenthesised where its parent binds tighter. {@link #toString()} is that text.
 * <p>
 * Rendering allocates; it runs once per compilation, never per event.
 */
abstract class RenderedNode
{
    /** @return how tightly the node's text binds: higher binds tighter. */
    abstract int precedence();

    /** @param out where to append the node's text. */
    abstract void render(StringBuilder out);

    /**
     * @param out           where to append the node's text.
     * @param parenthesised whether to put it in parentheses (its parent binds tighter).
     */
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
