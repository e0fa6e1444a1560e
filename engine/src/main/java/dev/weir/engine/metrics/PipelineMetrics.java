package dev.weir.engine.metrics;

import java.nio.file.Path;

import org.agrona.concurrent.status.CountersReader;

/**
 * The in-process view of a running pipeline's counters and latency histograms: the same values
 * {@code weir stat} reads from the metrics file (a replay, which writes no file, keeps them in memory), so
 * an application can export them (the {@code weir-micrometer} module binds them to Micrometer).
 * <p>
 * Counters are published once per batch of events, the histograms' count, percentiles and max about once a
 * second ({@link LatencySampler}); after the run has ended they keep their last values. Find a value by
 * its type id ({@link CounterTypes}).
 * <p>
 * Thread-safe: any thread may read, at any time; reads allocate nothing (except {@link #histogram(int)}).
 */
public final class PipelineMetrics
{
    private final CountersReader counters;
    private final String pipeline;
    private final Path journal;

    /**
     * @param counters the run's counters.
     * @param pipeline the pipeline's name.
     * @param journal  the journal's root directory.
     */
    public PipelineMetrics(final CountersReader counters, final String pipeline, final Path journal)
    {
        this.counters = counters;
        this.pipeline = pipeline;
        this.journal = journal;
    }

    /** @return the pipeline's name ({@code default} for the journal's own). */
    public String pipeline()
    {
        return pipeline;
    }

    /** @return the journal's root directory. */
    public Path journal()
    {
        return journal;
    }

    /**
     * @param typeId a counter's type id ({@link CounterTypes}).
     * @return its latest published value, or {@link Long#MIN_VALUE} if there is no such counter.
     */
    public long value(final int typeId)
    {
        final int id = MetricsFile.counterId(counters, typeId);
        return id < 0 ? Long.MIN_VALUE : counters.getCounterValue(id);
    }

    /**
     * @return the pipeline's latest published watermark, epoch ms, or {@link Long#MIN_VALUE} before the first.
     */
    public long watermark()
    {
        return value(CounterTypes.WATERMARK);
    }

    /**
     * @param base a histogram's base type id, {@link CounterTypes#READ_TO_APPLIED} or
     *             {@link CounterTypes#FIRE_TO_LISTENER}.
     * @return its latest published snapshot.
     */
    public LatencySnapshot histogram(final int base)
    {
        CounterTypes.histogramName(base); // checks it
        return new LatencySnapshot(CounterTypes.histogramName(base), value(base + CounterTypes.COUNT), value(base + CounterTypes.P50),
            value(base + CounterTypes.P90), value(base + CounterTypes.P99), value(base + CounterTypes.P999), value(base + CounterTypes.MAX));
    }

    /**
     * Visit every counter (histogram fields included), in allocation order.
     *
     * @param visitor told of each counter's type id and label.
     */
    public void forEachCounter(final CounterVisitor visitor)
    {
        counters.forEach((id, typeId, key, label) -> visitor.visit(typeId, label));
    }

    /** Told of each counter by {@link #forEachCounter(CounterVisitor)}. */
    @FunctionalInterface
    public interface CounterVisitor
    {
        /**
         * @param typeId the counter's type id.
         * @param label  its label.
         */
        void visit(int typeId, String label);
    }

    /**
     * A latency histogram's published values, in nanoseconds; all 0 before anything was recorded.
     *
     * @param name  {@code read-to-applied} or {@code fire-to-listener}.
     * @param count the number of records.
     * @param p50   the median.
     * @param p90   the 90th percentile.
     * @param p99   the 99th percentile.
     * @param p999  the 99.9th percentile.
     * @param max   the highest.
     */
    public record LatencySnapshot(String name, long count, long p50, long p90, long p99, long p999, long max)
    {
    }
}
