package dev.weir.postgres;

import dev.weir.journal.schema.WeirException;

/**
 * The PostgreSQL sink refused to write: the server refused the login or has no such database
 * ({@link PostgresOutputSink#connectOrDefer}), the database's tables do not match Weir's schema, a table name
 * is not a plain identifier, another journal feeds the table, the offsets the database holds do not
 * belong to the journal being delivered, or another sink moved them during a delivery. The transaction
 * open when it is thrown is rolled back; transactions the same delivery committed before stay (each is
 * whole: rows and offsets together). Its message says what to fix.
 */
public final class SinkRefusedException extends WeirException
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
