package dev.weir.csv;

import dev.weir.journal.schema.WeirException;

/**
 * An input the CSV source refuses as a whole, before or instead of ingesting it: a missing file, a first line that
 * is not the header of the columns, columns that neither keep nor extend a journal's, or a last line an earlier
 * complete ingest took without its terminator that has grown since. The message is one line, for a user. (A bad
 * line is no exception: it is rejected, recorded in the journal and exported with its reason.)
 * <p>
 * Immutable and thread-safe.
 */
public final class CsvInputException extends WeirException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what is wrong, in one line.
     */
    public CsvInputException(final String message)
    {
        super(message);
    }
}
