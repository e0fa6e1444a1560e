/**
 * The window operator: {@link dev.weir.engine.operator.WindowAssigner} judges each event against the
 * watermark (assigned, late, or in no window) and {@link dev.weir.engine.operator.WindowAggregator}
 * (aligned or session) applies it to its windows' state, fires windows the watermark has passed,
 * re-fires changed ones and routes late events. {@code OperatorConfiguration} builds both from one
 * description.
 * <p>
 * Threading: each operator is owned by one stage thread. Allocation-free per event. Internal.
 * <p>
 * Depends on {@code source} (the slot), {@code window}, {@code time}, {@code state}, {@code aggregate}
 * and {@code emit}; not on {@code checkpoint}, which reads and restores its state through a narrow
 * interface.
 */
package dev.weir.engine.operator;
