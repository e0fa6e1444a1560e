/**
 * User aggregations: computed per (key, window) beside count, sum, min and max, over a fixed number of
 * longs of state kept in the window's slot ({@code init}, {@code add}, {@code merge}, {@code result}),
 * allocating nothing. {@code Average} and {@code ApproxDistinct} are the examples.
 * <p>
 * Threading: called on the engine thread only; an aggregation keeps no state of its own outside the slot.
 * <p>
 * Depends on nothing in Weir.
 */
package dev.weir.engine.aggregate;
