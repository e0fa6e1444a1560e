/**
 * User aggregations: computed per (key, window) beside count, sum, min and max, over a fixed number of
 * longs of state kept in the window's slot ({@code init}, {@code add}, {@code merge}, {@code result}),
 * allocating nothing. {@code Average} and {@code ApproxDistinct} are the examples; an aggregation may read
 * every column of the event through the {@code EventColumns} flyweight ({@code ApproxDistinct.of(column)}).
 * <p>
 * Threading: called on the engine thread only; an aggregation keeps no state of its own outside the slot.
 * <p>
 * Depends on {@code dev.weir.journal} (the schema) only.
 */
package dev.weir.engine.aggregate;
