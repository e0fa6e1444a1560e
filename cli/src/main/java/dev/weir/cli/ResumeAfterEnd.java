package dev.weir.cli;

/**
 * The flag of the engine's rule for resuming from a checkpoint taken at the end of a bounded input
 * ({@link dev.weir.engine.PipelineBuilder#resumeAfterEnd(boolean)}): {@code weir run} checks the rule before it
 * ingests and again after ({@link dev.weir.engine.PipelineConfiguration#checkResume(dev.weir.engine.Recovery,
 * boolean, long)}), so a refused run processes nothing (exit 2); {@value #FLAG} accepts it. Stateless.
 */
final class ResumeAfterEnd
{
    /** The flag that accepts resuming after the end of the input all the same. */
    static final String FLAG = "--resume-after-end";

    private ResumeAfterEnd()
    {
    }
}
