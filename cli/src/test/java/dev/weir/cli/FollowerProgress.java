package dev.weir.cli;

import dev.weir.engine.metrics.EngineCounters;
import dev.weir.engine.metrics.MetricsFile;
import dev.weir.journal.JournalDirectory;

/**
 * How far a following {@code weir run} child has got, read from its pipeline's metrics file as
 * {@code weir stat} reads it; for the follow and kill tests. Stateless.
 */
final class FollowerProgress
{
    private FollowerProgress()
    {
    }

    /**
     * @param pipeline the pipeline's directory ({@code JournalDirectory.open(j).pipeline(name)}, or the journal).
     * @param pid      the follower's process id.
     * @return the journal offset that follower published as applied, or -1 before it published one.
     */
    static long appliedOffset(final JournalDirectory pipeline, final long pid)
    {
        try (MetricsFile metrics = MetricsFile.open(pipeline.metricsFile()))
        {
            if (metrics.pid() != pid)
            {
                return -1;
            }
            final long applied = metrics.value(EngineCounters.OFFSET_APPLIED);
            return applied == Long.MIN_VALUE ? -1 : applied;
        }
        catch (final IllegalStateException notYet)
        {
            return -1;
        }
    }

    /**
     * Sleep, turning an interrupt into a failure of the test.
     *
     * @param ms how long.
     */
    static void sleep(final long ms)
    {
        try
        {
            Thread.sleep(ms);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}
