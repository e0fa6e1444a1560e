package dev.weir.engine.resume;

import dev.weir.journal.schema.WeirException;

/**
 * A run would resume from a checkpoint taken at the end of a bounded input (its watermark is +infinity) and process
 * events after it, every one of them late: refused before any event is processed. Process those events with a new
 * pipeline or a replay, or accept it with {@link dev.weir.engine.PipelineBuilder#resumeAfterEnd(boolean)}.
 */
public final class ResumeAfterEndException extends WeirException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message why, and what to do.
     */
    public ResumeAfterEndException(final String message)
    {
        super(message);
    }
}
