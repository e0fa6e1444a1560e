package dev.weir.cli;

import dev.weir.engine.PipelineConfiguration;
import dev.weir.engine.Recovery;
import dev.weir.engine.resume.ResumeAfterEndException;

/**
 * The engine's rule for resuming from a checkpoint taken at the end of a bounded input
 * ({@link dev.weir.engine.PipelineBuilder#resumeAfterEnd(boolean)}), checked by {@code weir run} before it ingests
 * and again after, so a refused run processes nothing (exit 2); {@value #FLAG} accepts it. Stateless.
 */
final class ResumeAfterEnd
{
    /** The flag that accepts resuming after the end of the input all the same. */
    static final String FLAG = "--resume-after-end";

    private ResumeAfterEnd()
    {
    }

    /**
     * @param configuration the run's pipeline, {@link #FLAG} applied.
     * @param recovery      the checkpoint the run resumes from.
     * @param follow        true for a following run.
     * @param ingested      events this run ingested into the journal before this call (0 before the ingest).
     * @throws BadInputException if the run would make every event after the checkpoint late.
     */
    static void check(final PipelineConfiguration configuration, final Recovery recovery, final boolean follow, final long ingested)
    {
        try
        {
            configuration.checkResume(recovery, follow);
        }
        catch (final ResumeAfterEndException ex)
        {
            throw new BadInputException(ex.getMessage()
                + (ingested > 0 ? String.format("; the %,d events this run ingested stay in the journal", ingested) : ""));
        }
    }
}
