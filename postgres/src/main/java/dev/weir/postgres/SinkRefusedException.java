package dev.weir.postgres;

/**
 * The PostgreSQL sink refused to write: the database's tables do not match Weir's schema, a table name
 * is not a plain identifier, or the offsets the database holds do not belong to the journal being
 * delivered. Nothing was written when it is thrown. Its message says what to fix.
 */
public final class SinkRefusedException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what does not match, and what to do about it.
     */
    public SinkRefusedException(final String message)
    {
        super(message);
    }
}
