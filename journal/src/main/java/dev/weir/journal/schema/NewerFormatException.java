package dev.weir.journal.schema;

/**
 * Thrown when a file or record was written by a newer Weir than this one: its format version is above every
 * version this build reads. Nothing is written over it. The message names the format, where it was found,
 * the version found and the newest version this build reads; the command line exits with code 2.
 * <p>
 * Older versions are not refused with this: every reader accepts each version a released Weir has written.
 * Unchecked. Immutable once thrown.
 */
public final class NewerFormatException extends WeirException
{
    private static final long serialVersionUID = 1L;

    private final String format;
    private final int found;
    private final int newestRead;

    /**
     * @param format     the format's name as a user would know it, e.g. {@code "journal marker"} or
     *                   {@code "checkpoint state"}.
     * @param where      the file or record it was found in, e.g. a path.
     * @param found      the version found.
     * @param newestRead the newest version this build reads.
     */
    public NewerFormatException(final String format, final Object where, final int found, final int newestRead)
    {
        super(where + " is " + format + " version " + found + ", written by a newer Weir: this Weir reads " + format
            + " versions up to " + newestRead + "; run it with that newer Weir, or see docs/upgrading.md on rolling back");
        this.format = format;
        this.found = found;
        this.newestRead = newestRead;
    }

    /** @return the format's name. */
    public String format()
    {
        return format;
    }

    /** @return the version found. */
    public int found()
    {
        return found;
    }

    /** @return the newest version this build reads. */
    public int newestRead()
    {
        return newestRead;
    }
}
