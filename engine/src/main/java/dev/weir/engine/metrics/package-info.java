/**
 * Live counters of a running pipeline, in a memory-mapped file ({@code metrics.dat}, Agrona
 * {@code CountersManager} layout) that {@code weir stat} reads from another process, as {@code AeronStat}
 * reads Aeron's counters.
 * <p>
 * Threading: one writer (the engine thread publishes); any number of readers in any process.
 * <p>
 * Depends on Agrona only.
 */
package dev.weir.engine.metrics;
