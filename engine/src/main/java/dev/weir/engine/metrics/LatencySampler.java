package dev.weir.engine.metrics;

import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;

import dev.weir.engine.agent.WakeableIdleStrategy;

/**
 * A run's low-rate reader of its latency histograms: an Agrona {@link Agent} on a thread of the pipeline's
 * (named {@code ...-metrics}) that, about once a second, takes what the hot path recorded
 * ({@link RunLatencies#sampleInto(EngineCounters)}) and publishes the totals' count, percentiles and max to
 * the run's counters, so the hot path never computes a percentile. {@link #close()} stops it and publishes a
 * last time, so the final values are complete.
 * <p>
 * Steady state allocates nothing. Thread-safety: {@link #start()} and {@link #close()} are for the thread
 * that owns the run; the histograms are read and the counters written by the agent's thread only (or by the
 * closing thread if the agent's never ran).
 */
public final class LatencySampler implements Agent, AutoCloseable
{
    /** How often the histograms are published. */
    public static final long PERIOD_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final RunLatencies latencies;
    private final EngineCounters counters;
    private final BiFunction<Agent, IdleStrategy, AgentRunner> runners;
    private final WakeableIdleStrategy idle = new WakeableIdleStrategy(PERIOD_NANOS);
    private AgentRunner runner;

    /**
     * @param latencies the run's histograms.
     * @param counters  where to publish them.
     * @param runners   starts the sampler (an agent, with its idle strategy) on a thread of its own and returns
     *                  its runner: the pipeline's thread naming and factory.
     */
    public LatencySampler(final RunLatencies latencies, final EngineCounters counters, final BiFunction<Agent, IdleStrategy, AgentRunner> runners)
    {
        this.latencies = latencies;
        this.counters = counters;
        this.runners = runners;
    }

    /** Start sampling. */
    public void start()
    {
        runner = runners.apply(this, idle);
    }

    /**
     * One duty cycle: publish the histograms, then idle for a period.
     *
     * @return 0, so the runner parks for {@link #PERIOD_NANOS}.
     */
    @Override
    public int doWork()
    {
        latencies.sampleInto(counters);
        return 0;
    }

    /** Publish the histograms a last time, once the stages have stopped recording. */
    @Override
    public void onClose()
    {
        latencies.sampleInto(counters);
    }

    @Override
    public String roleName()
    {
        return "metrics";
    }

    /**
     * Stop the sampler and wait for it to publish the histograms a last time. Call after the stages have
     * stopped recording.
     */
    @Override
    public void close()
    {
        if (runner != null)
        {
            idle.close(runner);
        }
    }
}
