package dev.weir.engine.metrics;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

/**
 * A run's low-rate reader of its latency histograms: a thread of the pipeline's (named {@code ...-metrics}) that, about once a second, takes what
 * the hot path recorded ({@link RunLatencies#sampleInto(EngineCounters)}) and publishes the totals'
 * count, percentiles and max to the run's counters, so the hot path never computes a percentile.
 * {@link #close()} stops it and publishes a last time, so the final values are complete.
 * <p>
 * Steady state allocates nothing. Thread-safety: {@link #start()} and {@link #close()} are for the thread
 * that owns the run.
 */
public final class LatencySampler implements AutoCloseable
{
    /** How often the histograms are published. */
    public static final long PERIOD_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final RunLatencies latencies;
    private final EngineCounters counters;
    private final Thread thread;
    private volatile boolean running = true;

    /**
     * @param latencies  the run's histograms.
     * @param counters   where to publish them.
     * @param threads    makes the sampler's thread (not started) for the loop it is given: the pipeline's
     *                   thread naming and factory.
     */
    public LatencySampler(final RunLatencies latencies, final EngineCounters counters, final Function<Runnable, Thread> threads)
    {
        this.latencies = latencies;
        this.counters = counters;
        this.thread = threads.apply(this::run);
    }

    /** Start sampling. */
    public void start()
    {
        thread.start();
    }

    private void run()
    {
        while (running)
        {
            LockSupport.parkNanos(this, PERIOD_NANOS);
            if (running)
            {
                latencies.sampleInto(counters);
            }
        }
    }

    /**
     * Stop the thread and publish the histograms a last time (on the calling thread, once the sampler's has
     * ended). Call after the stages have stopped recording.
     */
    @Override
    public void close()
    {
        running = false;
        LockSupport.unpark(thread);
        try
        {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        if (!thread.isAlive())
        {
            latencies.sampleInto(counters);
        }
    }
}
