/**
 * What a pipeline reads of an event: {@link dev.weir.engine.expr.ColumnProjection}, the key columns and the value
 * column or expression; and the expression language of filters ({@code --where}) and computed values ({@code --value}):
 * {@link dev.weir.engine.expr.Expressions} reads and type-checks an expression against a journal's
 * schema once, into a tree of small nodes that an {@link dev.weir.engine.expr.EventFilter} or
 * {@link dev.weir.engine.expr.EventValue} evaluates on the event flyweight without allocating.
 * <p>
 * Threading: parsing is stateless; a compiled expression belongs to one owner thread (a filter caches
 * the dictionary ids of its string literals). Public API.
 * <p>
 * Depends on {@code dev.weir.journal} only.
 */
package dev.weir.engine.expr;
