package dev.weir.engine;

import dev.weir.journal.schema.WeirException;

/**
 * A pipeline run stopped because a stage or the journal publisher threw. The cause is attached.
 */
public final class PipelineFailedException extends WeirException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed.
     * @param cause   the underlying throwable.
     */
    public PipelineFailedException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
