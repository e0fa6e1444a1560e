package dev.weir.engine.metrics;

import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;
import org.HdrHistogram.ValueRecorder;

/**
 * One latency of the engine, in nanoseconds, kept with HdrHistogram: the hot path records into a
 * {@link SingleWriterRecorder} ({@link #recordValue(long)}: wait-free, allocation-free); a low-rate reader
 * ({@link #sample()}, about once a second) swaps out the interval recorded since its last sample, recycling
 * the previous one, and adds it to the run's total, which it publishes.
 * <p>
 * Values are clamped to [0, {@link #HIGHEST_NANOS}] (a longer latency counts as the highest), with two
 * significant digits (1% precision), so the histograms stay small (a few tens of KB).
 * <p>
 * Thread-safety: one recording thread; one sampling thread at a time (the run's sampler, then the thread
 * that closes the run once the sampler has ended).
 */
public final class LatencyHistogram implements ValueRecorder
{
    /** The highest latency told apart: one minute. */
    public static final long HIGHEST_NANOS = TimeUnit.MINUTES.toNanos(1);
    private static final int SIGNIFICANT_DIGITS = 2;

    private final int typeId;
    private final SingleWriterRecorder recorder = new SingleWriterRecorder(HIGHEST_NANOS, SIGNIFICANT_DIGITS);
    private final Histogram total = new Histogram(HIGHEST_NANOS, SIGNIFICANT_DIGITS);
    private Histogram interval;

    /**
     * @param typeId the base type id of its counters, {@link CounterTypes#READ_TO_APPLIED} or
     *               {@link CounterTypes#FIRE_TO_LISTENER}.
     */
    public LatencyHistogram(final int typeId)
    {
        CounterTypes.histogramName(typeId); // checks it
        this.typeId = typeId;
    }

    /** @return the base type id of its counters. */
    public int typeId()
    {
        return typeId;
    }

    /**
     * Record a latency (the recording thread).
     *
     * @param nanos the latency, ns; clamped to [0, {@link #HIGHEST_NANOS}].
     */
    @Override
    public void recordValue(final long nanos)
    {
        recorder.recordValue(Math.max(0, Math.min(nanos, HIGHEST_NANOS)));
    }

    @Override
    public void recordValueWithCount(final long nanos, final long count)
    {
        recorder.recordValueWithCount(Math.max(0, Math.min(nanos, HIGHEST_NANOS)), count);
    }

    @Override
    public void recordValueWithExpectedInterval(final long nanos, final long expectedInterval)
    {
        recorder.recordValueWithExpectedInterval(Math.max(0, Math.min(nanos, HIGHEST_NANOS)), expectedInterval);
    }

    /** Not supported: a run's latencies are never reset. */
    @Override
    public void reset()
    {
        throw new UnsupportedOperationException("a run's latencies are not reset");
    }

    /**
     * Take what was recorded since the last sample into the total (the sampling thread). Allocates only on
     * its first call (the interval histogram it then recycles).
     *
     * @return the run's total, owned by the sampling thread.
     */
    public Histogram sample()
    {
        interval = recorder.getIntervalHistogram(interval);
        total.add(interval);
        return total;
    }
}
