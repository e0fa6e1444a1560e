package dev.weir.engine.resume;

import dev.weir.journal.schema.WeirException;

/**
 * The newest checkpoint of a journal was taken under another pipeline configuration: resuming with this
 * one would mix two answers. Run with the checkpoint's configuration, or replay.
 */
public final class CheckpointMismatchException extends WeirException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what differs.
     */
    public CheckpointMismatchException(final String message)
    {
        super(message);
    }
}
