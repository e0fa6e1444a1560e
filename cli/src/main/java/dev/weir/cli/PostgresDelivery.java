package dev.weir.cli;

import java.sql.SQLException;

import dev.weir.journal.JournalDirectory;
import dev.weir.postgres.Delivery;
import dev.weir.postgres.PostgresSink;
import dev.weir.postgres.SinkRefusedException;

/**
 * The command line's side of the PostgreSQL sink: connects early (so a table that does not match is
 * refused before any work, exit code 2), delivers the output journal with progress on a terminal, and
 * describes what it did in one sentence. A database that cannot be reached fails the command (exit
 * code 1); the journal keeps everything, so the next run delivers it. Not thread-safe: one command thread.
 */
final class PostgresDelivery implements AutoCloseable
{
    private final PostgresSink sink;
    private final String url;

    private PostgresDelivery(final PostgresSink sink, final String url)
    {
        this.sink = sink;
        this.url = url;
    }

    /**
     * @param jdbcUrl   the database.
     * @param table     the results table.
     * @param batchSize outputs per transaction.
     * @return a connected delivery.
     */
    static PostgresDelivery connect(final String jdbcUrl, final String table, final int batchSize)
    {
        checkUrl(jdbcUrl);
        if (batchSize < 1)
        {
            throw new BadInputException("--jdbc-batch must be at least 1: " + batchSize);
        }
        try
        {
            return new PostgresDelivery(PostgresSink.connect(jdbcUrl, table, batchSize), PostgresSink.redacted(jdbcUrl));
        }
        catch (final SinkRefusedException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
        catch (final SQLException ex)
        {
            throw new IllegalStateException("cannot use PostgreSQL at " + PostgresSink.redacted(jdbcUrl) + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * @param jdbcUrl a {@code --jdbc-url}.
     * @throws BadInputException if it is not a PostgreSQL JDBC URL.
     */
    static void checkUrl(final String jdbcUrl)
    {
        if (!jdbcUrl.startsWith("jdbc:postgresql:"))
        {
            throw new BadInputException("--jdbc-url must be a PostgreSQL JDBC URL (jdbc:postgresql://host:port/database?user=...&password=...): "
                + PostgresSink.redacted(jdbcUrl));
        }
    }

    /**
     * Deliver everything the journal's output journal holds beyond what the database has.
     *
     * @param journal the journal.
     * @return what was delivered.
     */
    Delivery deliver(final JournalDirectory journal)
    {
        try (Progress progress = Progress.start("postgres", sink::resultsDelivered, sink::sourceOffsetDelivered))
        {
            return deliverQuietly(journal);
        }
    }

    /**
     * {@link #deliver} without progress on the terminal (a following run delivers every second).
     *
     * @param journal the journal.
     * @return what was delivered.
     */
    Delivery deliverQuietly(final JournalDirectory journal)
    {
        try
        {
            return sink.deliver(journal);
        }
        catch (final SinkRefusedException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
        catch (final SQLException ex)
        {
            throw new IllegalStateException("delivery to PostgreSQL at " + url + " failed (the journal keeps every result: run again to deliver them): "
                + ex.getMessage(), ex);
        }
    }

    /**
     * @param delivery what {@link #deliver} returned.
     * @return one sentence for the summary.
     */
    String describe(final Delivery delivery)
    {
        return String.format("PostgreSQL %s, table %s: %,d results upserted (%,d rows inserted or raised to a higher version) in %,d transactions%s, "
                + "delivered up to output position %d (event offset %d)",
            url, sink.table(), delivery.results(), delivery.changed(), delivery.transactions(),
            delivery.resumedAfter() >= 0 ? ", resuming after position " + delivery.resumedAfter() : "", delivery.position(), delivery.sourceOffset());
    }

    @Override
    public void close()
    {
        try
        {
            sink.close();
        }
        catch (final SQLException ignored)
        {
            // closing a connection we are done with: nothing is lost
        }
    }
}
