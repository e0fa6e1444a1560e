/**
 * User aggregations: computed per (key, window) beside count, sum, min and max, over a fixed number of
 * longs of state kept in the window's slot ({@code init}, {@code add}, {@code merge}, {@code result}),
 * allocating nothing. {@code Average} and {@code ApproxDistinct} are the examples; an aggregation may read
 * every column of the event through the {@code EventColumns} flyweight ({@code ApproxDistinct.of(column)}).
 * <p>
 * Named aggregates ({@code --aggregates 'open=first(price),vwap=sum(price*qty)/sum(qty)'}): {@code NamedAggregates}
 * parses the list, {@code BoundAggregates} binds it to the pipeline's columns (scales, one state machine per
 * aggregate, the inputs each event carries), {@code AggregateInputs} computes those inputs per event, and
 * {@code ScaledArithmetic} evaluates result expressions exactly, without allocating.
 * <p>
 * Threading: called on the engine thread only; an aggregation keeps no state of its own outside the slot (a named
 * aggregate's scratch aside); {@code AggregateInputs} belongs to the source stage's thread.
 * <p>
 * Depends on {@code dev.weir.journal} (the schema) and {@code dev.weir.engine.expr} (values and filters).
 */
package dev.weir.engine.aggregate;
