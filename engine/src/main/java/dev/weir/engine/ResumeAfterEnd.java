package dev.weir.engine;

import dev.weir.engine.checkpoint.Checkpoint;
import dev.weir.engine.resume.ResumeAfterEndException;
import dev.weir.journal.EventLag;
import dev.weir.journal.JournalDirectory;

/**
 * The rule for resuming a pipeline from a checkpoint taken at the end of a bounded input (or just before that end
 * was applied): its watermark is +infinity and every window has fired, so every event after it is late, dropped or
 * sent to the late output. A run that would resume from such a checkpoint and process events after it is refused:
 * a following run always (every event it will see is after it), a bounded run when the journal holds events after
 * it. A bounded run with nothing after the checkpoint (a rerun, an export) is not concerned, nor is a replay, which
 * reads no checkpoint. The end of input is the checkpoint's phase, which its format has always recorded. A checkpoint
 * whose state is rebuilt by replay ({@link Recovery#rebuilt()}) is held to the same rule, and
 * {@code --resume-after-end} does not lift it: a replay from the beginning cannot end the input where that run did.
 * Stateless.
 */
final class ResumeAfterEnd
{
    private ResumeAfterEnd()
    {
    }

    /**
     * @param recovery the checkpoint the run resumes from.
     * @param pipeline the journal as the run's pipeline sees it.
     * @param follow   true for a following run.
     * @throws ResumeAfterEndException if the run would make every event after the checkpoint late.
     */
    static void check(final Recovery recovery, final JournalDirectory pipeline, final boolean follow)
    {
        final Checkpoint checkpoint = recovery.checkpoint() != null ? recovery.checkpoint() : recovery.rebuilt();
        if (checkpoint == null || !(checkpoint.finished() || checkpoint.endPending()))
        {
            return;
        }
        final long after = EventLag.after(pipeline, checkpoint.sourceOffset());
        if (after == 0 && !follow)
        {
            return;
        }
        final String late = after == 0 ? "every event appended from now on would be late for it"
            : String.format("the %,d events after it would all be late for it", after);
        if (recovery.rebuilt() != null)
        {
            throw new ResumeAfterEndException("pipeline " + pipeline.pipelineName() + " would rebuild checkpoint #" + checkpoint.sequence()
                + " (state format " + recovery.stateFormat() + ", written by an older Weir) by replay, but it was taken at the end of a bounded"
                + " run's input and " + (after == 0 ? "this run follows the journal" : String.format("%,d events follow it", after))
                + ": a replay cannot end the input where that run did. Process the journal with weir replay, or with a new pipeline (--pipeline NAME)");
        }
        throw new ResumeAfterEndException("pipeline " + pipeline.pipelineName() + " resumes from checkpoint #" + checkpoint.sequence()
            + ", taken at the end of a bounded run's input (watermark +infinity): " + late + " (dropped, or sent to the late output)"
            + ". Process them with a new pipeline (--pipeline NAME, from the journal's first event) or weir replay, and follow a growing "
            + "journal with --follow from its first run; or give --resume-after-end (PipelineBuilder.resumeAfterEnd(true)) to resume all the same");
    }
}
