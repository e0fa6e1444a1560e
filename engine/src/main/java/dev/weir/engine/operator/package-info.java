/**
 * The window operators, the engine's two stages: {@code WindowAssigner} (the watermark, and which of an
 * event's windows are not late) and {@code WindowAggregator} (aligned or session windows: apply, dedupe,
 * route late events, fire, re-fire and discard), both built from one {@code OperatorConfiguration}. The
 * aggregator's whole state is readable and restorable through {@code OperatorState}, whose checkpoint
 * format belongs to the {@code checkpoint} package.
 * <p>
 * Threading: each stage is owned by one thread (the same one in the fused and inline layouts); the
 * configuration is immutable.
 * <p>
 * Depends on {@code source} (the ring's slot), {@code window}, {@code time}, {@code state},
 * {@code aggregate} and {@code emit} (the listeners results and late events go to); not on {@code checkpoint}.
 */
package dev.weir.engine.operator;
