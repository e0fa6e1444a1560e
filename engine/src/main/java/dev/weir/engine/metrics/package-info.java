/**
 * A run's counters: {@link dev.weir.engine.metrics.RunCounters}, the one structure a run's counts live
 * in, and its live view, the memory-mapped metrics file ({@code metrics.dat}, Agrona
 * {@code CountersManager} layout) that {@code weir stat} reads from another process, as
 * {@code AeronStat} reads Aeron's counters.
 * <p>
 * Public for {@link dev.weir.engine.metrics.PipelineMetrics} (what {@code Pipeline.metrics()} returns) and
 * {@link dev.weir.engine.metrics.CounterTypes} (the stable type ids), which an application reads; the writers are
 * the engine's.
 * <p>
 * Threading: one writer (the last stage's thread publishes once per batch); any number of readers in any
 * process.
 * <p>
 * Depends on {@code operator}, {@code checkpoint} and {@code emit} (whose counts it reads) and Agrona.
 */
package dev.weir.engine.metrics;
