package dev.weir.engine;

import dev.weir.engine.delivery.ContinuousDelivery;
import dev.weir.engine.source.IdleHeartbeats;
import dev.weir.engine.stage.RunCompletion;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.SleepingMillisIdleStrategy;

/**
 * One started run of a {@link Pipeline}: its threads, stages, wiring, retention, heartbeats and delivery, from opening to release,
 * and the moves of the {@link PipelineLifecycle} that whoever runs it tells (the thread that started it, or
 * the {@link PipelineAgent}'s): running, stopping, stopped.
 * <p>
 * Not thread-safe: opened by the thread that starts the pipeline; {@link #running}, {@link #stopping()} and
 * {@link #release()} are told by that thread or by the agent's. {@link #released()} and {@link #summary()}
 * are volatile reads, for the owner once the agent's thread has released the run.
 */
final class PipelineRun
{
    /** How long the delivery's thread sleeps between duty cycles that did nothing, ms: the latency of a stop's last delivery. */
    private static final long DELIVERY_IDLE_MS = 10;

    private final PipelineConfiguration config;
    private final Recovery recovery;
    private final RunCompletion completion;
    private final PipelineLifecycle lifecycle;
    private final LifecycleLog log;
    /** The following run's idle heartbeats, or null. */
    private IdleHeartbeats heartbeats;
    private final InProcessProducer producer;
    private final long startedNanos = System.nanoTime();
    private PipelineThreads threads;
    private RunStages stages;
    private Wiring wiring;
    /** The following run's retention thread, or null. */
    private FollowingRetention retention;
    /** The continuous delivery ({@link PipelineBuilder#deliverContinuously}) and its runner, or null. */
    private ContinuousDelivery delivery;
    private AgentRunner deliveryRunner;
    /** The run's threads have ended and its files are released (by the owner, or the agent's thread). */
    private volatile boolean released;
    private volatile RunSummary summary;

    PipelineRun(
        final PipelineConfiguration config,
        final Recovery recovery,
        final RunCompletion completion,
        final PipelineLifecycle lifecycle,
        final LifecycleLog log,
        final InProcessProducer producer)
    {
        this.config = config;
        this.recovery = recovery;
        this.completion = completion;
        this.lifecycle = lifecycle;
        this.log = log;
        this.producer = producer;
    }

    /**
     * Build the run's threads, stages and wiring, in that order, and start them (a following run's retention
     * and heartbeats too). What was built before a failure stays, for {@link Pipeline#metrics()}; the failure is thrown.
     *
     * @param follow true for a following run.
     * @param polled true for a run polled by an agent: its wiring is not started on Weir's threads.
     */
    void open(final boolean follow, final boolean polled)
    {
        threads = new PipelineThreads(config.directory().pipelineName(), config.threadFactory(), config.pinning(), completion);
        stages = new RunStages(config, recovery, completion, threads);
        log.resume(recovery);
        wiring = new Wiring(config, follow, completion, polled ? null : threads, stages.reader(), stages.assigner(), stages.lastStage(), stages.rejectedLines(),
            stages.readClocks(), stages.keyTuples(), stages.firstUnread());
        if (!polled)
        {
            wiring.start();
        }
        if (follow && config.retentionMillis() >= 0)
        {
            retention = new FollowingRetention(config.directory(), config.retentionMillis(), config.retentionArchive(),
                stages.retentionCounters(), threads, completion);
            retention.start();
        }
        if (follow && config.idleTimeoutMillis() > 0)
        {
            heartbeats = new IdleHeartbeats(config.directory(), config.idleTimeoutMillis(), config.heartbeatsStopped())
                .start(threads.agents("heartbeats", completion::fail));
        }
        delivery = config.continuousDelivery();
        if (delivery != null)
        {
            deliveryRunner = threads.startAgent("delivery", delivery, new SleepingMillisIdleStrategy(DELIVERY_IDLE_MS), ex ->
            {
                if (!(ex instanceof AgentTerminationException))
                {
                    completion.fail(ex); // a listener that threw: the delivery's own failures never reach here
                }
            });
        }
    }

    /**
     * The run is running: told by the thread that started it, or the agent's.
     *
     * @param follow  true for a following run.
     * @param threads the run's thread name prefix, or the agent's role.
     */
    void running(final boolean follow, final String threads)
    {
        if (lifecycle.moveTo(PipelineState.RUNNING))
        {
            log.running(follow, threads);
        }
    }

    /** The run is stopping: told by the thread that stops it. */
    void stopping()
    {
        lifecycle.moveTo(PipelineState.STOPPING);
    }

    /**
     * End the run once it has completed or failed: halt its threads, take the last checkpoint, release its
     * files and tell the lifecycle. Runs once; called by the owner, or by the agent's thread on close.
     */
    void release()
    {
        if (released)
        {
            return;
        }
        lifecycle.moveTo(PipelineState.STOPPING);
        try
        {
            if (heartbeats != null)
            {
                heartbeats.close(); // no heartbeat after the stop's checkpoint
            }
            if (retention != null)
            {
                retention.close(); // waits for a step in progress
            }
            wiring.halt(); // nothing below is closed under a stage still running
            stages.close(completion);
            producer.close();
        }
        catch (final RuntimeException | Error ex)
        {
            completion.fail(ex);
        }
        finishDelivery(); // after the last output is in the output journal, even if the run failed
        if (completion.failure() == null)
        {
            final long lastOffset = completion.lastOffset() >= 0 ? completion.lastOffset() : recovery.resumeAfterOffset();
            summary = RunSummary.of(stages.counters(), lastOffset, System.nanoTime() - startedNanos, stages.lastStage().busyNanos());
            if (lifecycle.moveTo(PipelineState.STOPPED))
            {
                log.stopped(summary);
            }
        }
        released = true;
    }

    /** The last delivery, bounded by the stop grace; a runner whose agent did not end is left to the JVM's exit. */
    private void finishDelivery()
    {
        if (delivery != null && delivery.finish())
        {
            deliveryRunner.close(); // the agent ended: returns at once
        }
    }

    /**
     * @return true once {@link #release()} has run (any thread).
     */
    boolean released()
    {
        return released;
    }

    /**
     * @return what the run did, once released without a failure; else null (any thread).
     */
    RunSummary summary()
    {
        return summary;
    }

    /**
     * @return the run's wiring, or null if opening failed before it was built.
     */
    Wiring wiring()
    {
        return wiring;
    }

    /**
     * @return the run's stages, or null if opening failed before they were built.
     */
    RunStages stages()
    {
        return stages;
    }

    /**
     * @return {@code weir-<pipeline>-<run>}, the prefix of the run's thread names.
     */
    String threadPrefix()
    {
        return threads.prefix();
    }
}
