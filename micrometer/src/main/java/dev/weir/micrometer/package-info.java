/**
 * Optional binding of Weir's metrics to Micrometer: {@link dev.weir.micrometer.WeirMetrics} registers a
 * pipeline's counters and latency histograms with a {@code MeterRegistry}, for services that export
 * Prometheus (or other) metrics. The engine does not depend on Micrometer; only this module does.
 * <p>
 * Depends on {@code dev.weir.engine.metrics} (the in-process view, {@code Pipeline.metrics()}) and
 * {@code micrometer-core}.
 */
package dev.weir.micrometer;
