package dev.weir.files;

import dev.weir.journal.schema.WeirException;

/**
 * An export refused before any file is replaced: the pipeline's columns are not in the journal (a missing column,
 * one of the wrong type, an expression or condition that does not read), or retention removed outputs that a
 * results or late-events file would have to hold. The message is one line that names the problem; no file was
 * touched.
 */
public final class ExportRefusedException extends WeirException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message the one line naming the problem.
     */
    public ExportRefusedException(final String message)
    {
        super(message);
    }
}
