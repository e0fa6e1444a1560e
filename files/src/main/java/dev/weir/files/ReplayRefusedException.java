package dev.weir.files;

import dev.weir.journal.schema.WeirException;

/**
 * A replay refused before anything is written ({@link ResultReplay#run()}): a range that leaves out events of a
 * journal replayed into date partitions, or a range or days whose events retention removed. The message is one line
 * that names the problem, what is still available and how to proceed; no file was touched.
 */
public final class ReplayRefusedException extends WeirException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message the one line naming the problem.
     */
    public ReplayRefusedException(final String message)
    {
        super(message);
    }
}
