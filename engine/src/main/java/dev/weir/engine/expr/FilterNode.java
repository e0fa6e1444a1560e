package dev.weir.engine.expr;

/**
 * A node of a compiled filter: a comparison, an {@code in} list, or {@code and}, {@code or}, {@code not}
 * over nodes. {@link #toString()} is the normalised text.
 * <p>
 * One owner thread (a string literal caches its dictionary id); testing allocates nothing.
 */
abstract class FilterNode extends RenderedNode implements EventFilter
{
    static final int OR = 1;
    static final int AND = 2;
    static final int NOT = 3;
    static final int COMPARISON = 4;

    /** @return how tightly the node's text binds: {@link #OR} to {@link #COMPARISON}. */
    abstract int precedence();
}
