package dev.weir.journal;

import java.nio.file.Path;

import dev.weir.journal.schema.WeirException;

/**
 * Thrown when a directory cannot be used as a Weir journal: it is not one (a foreign or non-empty
 * directory without a Weir marker), it is of an unknown format version, or its queue files cannot be
 * read. The directory is never written into when this is thrown.
 */
public final class JournalRefusedException extends WeirException
{
    private static final long serialVersionUID = 1L;

    private final Path directory;

    /**
     * @param directory the directory that was refused.
     * @param reason    a sentence a person can act on.
     */
    public JournalRefusedException(final Path directory, final String reason)
    {
        super("refusing journal directory " + directory + ": " + reason);
        this.directory = directory;
    }

    /**
     * @param directory the directory that was refused.
     * @param reason    a sentence a person can act on.
     * @param cause     what went wrong underneath.
     */
    public JournalRefusedException(final Path directory, final String reason, final Throwable cause)
    {
        super("refusing journal directory " + directory + ": " + reason, cause);
        this.directory = directory;
    }

    /**
     * @return the directory that was refused.
     */
    public Path directory()
    {
        return directory;
    }
}
