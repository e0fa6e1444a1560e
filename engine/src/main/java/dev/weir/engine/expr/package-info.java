/**
 * Filters and computed values over the event flyweight: {@link dev.weir.engine.expr.EventFilter} and
 * {@link dev.weir.engine.expr.EventValue}, compiled once per pipeline from text by
 * {@link dev.weir.engine.expr.Expressions} or written in Java, and evaluated by the journal publisher on each
 * event without allocating.
 */
package dev.weir.engine.expr;
