package dev.weir.engine.emit;

import dev.weir.journal.schema.WeirException;

/**
 * Recovery reproduced an output that differs from the one already in the output journal. Processing is
 * deterministic, so this means a bug or a journal changed under the engine; the run stops rather than
 * write a second, different answer.
 */
public final class DeterminismException extends WeirException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what differs.
     */
    public DeterminismException(final String message)
    {
        super(message);
    }
}
