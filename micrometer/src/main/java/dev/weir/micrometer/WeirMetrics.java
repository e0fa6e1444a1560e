package dev.weir.micrometer;

import java.util.Objects;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.Pipeline;
import dev.weir.engine.metrics.CounterTypes;
import dev.weir.engine.metrics.PipelineMetrics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Binds one pipeline's counters and latency histograms to a Micrometer {@link MeterRegistry}, tagged
 * {@code pipeline=<name>} and {@code journal=<directory>} (plus any extra tags):
 * <ul>
 *   <li>counts as {@link FunctionCounter}s ({@code weir.events.applied}, {@code weir.windows.fired}, ...) and
 *       levels as {@link Gauge}s ({@code weir.windows.open}, {@code weir.watermark}, ...), one per counter of
 *       the engine's metrics file, found by type id;</li>
 *   <li>with {@code --retention} ({@code PipelineBuilder.retention}), its steps, failures, cycle files and bytes
 *       removed ({@code weir.retention.*} counters) and the bytes kept, oldest offset and events floor (gauges);
 *       NaN for a run without retention;</li>
 *   <li>each latency histogram ({@code latency=read-to-applied} or {@code latency=fire-to-listener}) as a
 *       gauge {@code weir.latency} per quantile ({@code quantile=0.5, 0.9, 0.99, 0.999}), a gauge
 *       {@code weir.latency.max} and a function counter {@code weir.latency.count}, in seconds: the
 *       run's totals, published by the engine about once a second.</li>
 * </ul>
 * Meters read the pipeline's {@link PipelineMetrics} when the registry asks (a scrape), never on the
 * engine's threads; after the run ends they keep its last values. A counter the engine does not publish
 * reads as NaN.
 * <p>
 * Thread-safety: {@link #bindTo(MeterRegistry)} from any thread; the meters may be read from any thread.
 */
public final class WeirMetrics implements MeterBinder
{
    private static final double[] QUANTILES = {0.5, 0.9, 0.99, 0.999};
    private static final int[] QUANTILE_FIELDS = {CounterTypes.P50, CounterTypes.P90, CounterTypes.P99, CounterTypes.P999};

    private final PipelineMetrics metrics;
    private final Tags tags;

    /**
     * @param metrics the pipeline's metrics ({@link Pipeline#metrics()}).
     * @param extra   tags to add to every meter, after {@code pipeline} and {@code journal}.
     */
    public WeirMetrics(final PipelineMetrics metrics, final Iterable<Tag> extra)
    {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.tags = Tags.of("pipeline", metrics.pipeline(), "journal", metrics.journal().toString()).and(extra);
    }

    /**
     * @param pipeline a started pipeline.
     * @return a binder of its metrics, with the {@code pipeline} and {@code journal} tags only.
     */
    public static WeirMetrics of(final Pipeline pipeline)
    {
        return new WeirMetrics(pipeline.metrics(), Tags.empty());
    }

    @Override
    public void bindTo(final MeterRegistry registry)
    {
        counter(registry, "weir.events.applied", CounterTypes.EVENTS_APPLIED, "events applied since the journal's start");
        counter(registry, "weir.events.late.dropped", CounterTypes.LATE_DROPPED, "late events dropped");
        counter(registry, "weir.events.late.side.output", CounterTypes.LATE_SIDE_OUTPUT, "late events sent to the side output");
        counter(registry, "weir.events.no.window", CounterTypes.EVENTS_IN_NO_WINDOW, "events in no window");
        counter(registry, "weir.events.duplicates", CounterTypes.DUPLICATES, "duplicate events ignored");
        counter(registry, "weir.events.filtered", CounterTypes.FILTERED, "events the pipeline's filter rejected");
        counter(registry, "weir.values.wrapped", CounterTypes.VALUES_WRAPPED, "events whose computed value wrapped past the 64-bit range");
        counter(registry, "weir.sums.wrapped", CounterTypes.SUMS_WRAPPED, "additions to a window's sum that wrapped past the 64-bit range");
        counter(registry, "weir.windows.fired", CounterTypes.WINDOWS_FIRED, "window firings, re-firings included");
        counter(registry, "weir.checkpoints", CounterTypes.CHECKPOINTS, "checkpoints taken by this run");
        counter(registry, "weir.outputs", CounterTypes.OUTPUTS, "outputs written by this run (results and late events)");
        counter(registry, "weir.input.rejected", CounterTypes.REJECTED_LINES, "rejected input lines read by this run");
        gauge(registry, "weir.windows.open", CounterTypes.WINDOWS_OPEN, "(key, window) states open", null);
        gauge(registry, "weir.watermark", CounterTypes.WATERMARK, "the watermark, epoch ms (NaN at minus or plus infinity)", "milliseconds");
        gauge(registry, "weir.journal.offset.applied", CounterTypes.OFFSET_APPLIED, "journal offset of the last event applied", null);
        gauge(registry, "weir.checkpoint.offset", CounterTypes.CHECKPOINT_OFFSET, "journal offset the last checkpoint covers", null);
        Gauge.builder("weir.journal.last.event.read.age", metrics, m -> age(m.value(CounterTypes.LAST_EVENT_READ)))
            .tags(tags).description("seconds since the last poll of the journal that read an event (NaN before any)")
            .baseUnit("seconds").register(registry);
        counter(registry, "weir.retention.steps", CounterTypes.RETENTION_STEPS, "retention steps of this run (--retention; NaN without)");
        counter(registry, "weir.retention.failures", CounterTypes.RETENTION_FAILURES, "retention steps that failed (retried)");
        counter(registry, "weir.retention.cycles.removed", CounterTypes.RETENTION_CYCLES_REMOVED, "roll-cycle files removed by this run's retention");
        counter(registry, "weir.retention.bytes.removed", CounterTypes.RETENTION_BYTES_REMOVED, "bytes of cycle files removed (file lengths)");
        gauge(registry, "weir.retention.bytes.kept", CounterTypes.RETENTION_BYTES_KEPT, "bytes of cycle files the journal keeps (file lengths)", "bytes");
        gauge(registry, "weir.retention.oldest.offset", CounterTypes.RETENTION_OLDEST_OFFSET, "oldest events offset the journal holds", null);
        gauge(registry, "weir.retention.events.floor", CounterTypes.RETENTION_EVENTS_FLOOR, "first events offset a holder needs (NaN: nothing held)", null);
        latency(registry, CounterTypes.READ_TO_APPLIED);
        latency(registry, CounterTypes.FIRE_TO_LISTENER);
    }

    private void counter(final MeterRegistry registry, final String name, final int typeId, final String description)
    {
        FunctionCounter.builder(name, metrics, m -> number(m.value(typeId))).tags(tags).description(description).register(registry);
    }

    private void gauge(final MeterRegistry registry, final String name, final int typeId, final String description, final String unit)
    {
        Gauge.builder(name, metrics, m -> number(m.value(typeId))).tags(tags).description(description).baseUnit(unit).register(registry);
    }

    private void latency(final MeterRegistry registry, final int base)
    {
        final Tags latency = tags.and("latency", CounterTypes.histogramName(base));
        for (int i = 0; i < QUANTILES.length; i++)
        {
            final int typeId = base + QUANTILE_FIELDS[i];
            Gauge.builder("weir.latency", metrics, m -> seconds(m.value(typeId))).tags(latency.and("quantile", Double.toString(QUANTILES[i])))
                .description("latency quantile over the run").baseUnit("seconds").register(registry);
        }
        Gauge.builder("weir.latency.max", metrics, m -> seconds(m.value(base + CounterTypes.MAX))).tags(latency)
            .description("highest latency of the run").baseUnit("seconds").register(registry);
        FunctionCounter.builder("weir.latency.count", metrics, m -> number(m.value(base + CounterTypes.COUNT))).tags(latency)
            .description("latencies recorded").register(registry);
    }

    /** @return the value, or NaN for a counter not published or at minus or plus infinity. */
    private static double number(final long value)
    {
        return value == Long.MIN_VALUE || value == Long.MAX_VALUE ? Double.NaN : value;
    }

    private static double seconds(final long nanos)
    {
        return nanos == Long.MIN_VALUE ? Double.NaN : nanos / (double)TimeUnit.SECONDS.toNanos(1);
    }

    private static double age(final long wallClockMs)
    {
        return wallClockMs <= 0 || wallClockMs == Long.MIN_VALUE ? Double.NaN : Math.max(0, System.currentTimeMillis() - wallClockMs) / 1e3;
    }
}
