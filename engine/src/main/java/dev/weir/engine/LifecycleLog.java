package dev.weir.engine;

import java.util.concurrent.TimeUnit;

import dev.weir.engine.checkpoint.Checkpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log lines of a {@link Pipeline}'s lifecycle: where the run resumes, that it is running, that it
 * stopped, that it failed. They are logged through SLF4J by the logger {@code dev.weir.engine.Pipeline}, at
 * info (error for the failure); nothing is logged per event.
 * <p>
 * Thread-safe: it holds only the configuration; each line is logged on the thread that tells it.
 */
final class LifecycleLog
{
    private static final Logger LOG = LoggerFactory.getLogger(Pipeline.class);

    private final PipelineConfiguration config;

    LifecycleLog(final PipelineConfiguration config)
    {
        this.config = config;
    }

    /**
     * Where the run starts: the replayed range, the rebuild, the beginning of the journal, or the checkpoint.
     *
     * @param recovery what the run resumes from.
     */
    void resume(final Recovery recovery)
    {
        if (!LOG.isInfoEnabled())
        {
            return;
        }
        final String name = config.directory().pipelineName();
        final Checkpoint from = recovery.checkpoint();
        if (!config.durableOutput())
        {
            LOG.info("pipeline {} over {} replays offsets {} to {}, no checkpoints", name, config.directory().root(),
                config.fromOffset() < 0 ? "first" : config.fromOffset(), config.toOffset() == Long.MAX_VALUE ? "last" : config.toOffset());
        }
        else if (recovery.rebuilt() != null)
        {
            LOG.info(recovery.rebuildNote(name));
        }
        else if (from == null)
        {
            LOG.info("pipeline {} over {} starts from the beginning of the journal: no checkpoint", name, config.directory().root());
        }
        else
        {
            LOG.info("pipeline {} over {} resumes from checkpoint {} after offset {} ({} events applied before it, outputs up to position {})",
                name, config.directory().root(), from.sequence(), from.sourceOffset(), from.applied(), from.outputPosition());
        }
    }

    /**
     * @param follow  true for a following run.
     * @param threads the run's thread name prefix, or the agent's role.
     */
    void running(final boolean follow, final String threads)
    {
        LOG.info("pipeline {} over {} running: {} {}, threads {}, pinning {}", config.directory().pipelineName(), config.directory().root(),
            follow ? "following" : "to the end,", config.layout(follow), threads, config.pinning().describe());
    }

    /**
     * @param summary what the run did.
     */
    void stopped(final RunSummary summary)
    {
        LOG.info("pipeline {} over {} stopped: {} events this run ({} in all), last offset {}, {} windows fired, {} checkpoints, {} ms",
            config.directory().pipelineName(), config.directory().root(), summary.eventsThisRun(), summary.events(), summary.lastOffset(),
            summary.windowsFired(), summary.checkpoints(), TimeUnit.NANOSECONDS.toMillis(summary.elapsedNanos()));
    }

    /**
     * @param cause the run's first failure.
     */
    void failed(final Throwable cause)
    {
        LOG.error("pipeline {} over {} failed", config.directory().pipelineName(), config.directory().root(), cause);
    }
}
