package dev.weir.cli;

import java.sql.SQLException;

import dev.weir.journal.JournalDirectory;
import dev.weir.postgres.Delivery;
import dev.weir.postgres.PostgresSink;
import dev.weir.postgres.ResultsTableShape;
import dev.weir.postgres.SinkRefusedException;

/**
 * The command line's side of the PostgreSQL sink: connects early (so a table that does not match, or a
 * server that refuses the login, is refused before any work, exit code 2), delivers the output journal
 * with progress on a terminal, and describes what it did in one sentence. A database that is down delays
 * the table, never the engine: one that cannot be reached at the start is connected at the first delivery
 * (its tables are checked then), and a delivery that fails on the database throws
 * {@link DeliveryPendingException} (exit code 4) naming how many results are pending; the journal keeps
 * them, so the next run delivers them. Not thread-safe: one delivering thread; {@link #abort()},
 * {@link #abandon()} and {@link #pendingReport} may be called from another.
 */
final class PostgresDelivery implements AutoCloseable
{
    private final PostgresSink sink;
    private final String url;
    private volatile boolean abandoned;

    private PostgresDelivery(final PostgresSink sink, final String url)
    {
        this.sink = sink;
        this.url = url;
    }

    /**
     * @param jdbcUrl   the database.
     * @param table     the results table.
     * @param shape     its columns: the pipeline's key and value columns.
     * @param batchSize outputs per transaction.
     * @return a connected delivery.
     */
    static PostgresDelivery connect(final String jdbcUrl, final String table, final ResultsTableShape shape, final int batchSize)
    {
        checkUrl(jdbcUrl);
        if (batchSize < 1)
        {
            throw new BadInputException("--jdbc-batch must be at least 1: " + batchSize);
        }
        final String redacted = PostgresSink.redacted(jdbcUrl);
        try
        {
            return new PostgresDelivery(PostgresSink.connect(jdbcUrl, table, shape, batchSize), redacted);
        }
        catch (final SinkRefusedException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
        catch (final SQLException ex)
        {
            final String state = ex.getSQLState() == null ? "" : ex.getSQLState();
            if (state.startsWith("28") || state.equals("3D000")) // the server answered: a login or database that does not exist
            {
                throw new BadInputException("cannot use PostgreSQL at " + redacted + ": " + ex.getMessage());
            }
            System.err.println("weir: PostgreSQL at " + redacted + " cannot be reached now (" + ex.getMessage() + "): ingest, processing "
                + "and files go on, and the results are delivered when it can be reached (its tables are checked then)");
            try
            {
                return new PostgresDelivery(PostgresSink.deferred(jdbcUrl, table, shape, batchSize), redacted);
            }
            catch (final SinkRefusedException refused)
            {
                throw new BadInputException(refused.getMessage());
            }
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
        catch (final DeliveryPendingException ex)
        {
            throw new DeliveryPendingException(pendingReport(journal, ex.getCause().getMessage()), ex.getCause(), false);
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
            throw new DeliveryPendingException("delivery to PostgreSQL at " + url + " failed (the journal keeps every result): " + ex.getMessage(),
                ex, false);
        }
    }

    /**
     * @param journal the journal.
     * @param reason  why they are not delivered.
     * @return a sentence: how many results are not delivered, why, and that the next run delivers them; any thread.
     */
    String pendingReport(final JournalDirectory journal, final String reason)
    {
        return String.format("%s%,d results are not delivered to PostgreSQL at %s, table %s (%s): the output journal keeps them, "
                + "and the next run with --jdbc-url delivers them", sink.heldPosition() == PostgresSink.UNKNOWN ? "up to " : "",
            sink.pendingResults(journal), url, sink.table(), reason);
    }

    /**
     * Make a delivery blocked on a database that hangs fail now; any thread.
     */
    void abort()
    {
        sink.abort();
    }

    /**
     * The delivering thread did not end: leave the sink to the JVM's exit ({@link #close()} does nothing), so
     * that the journal's files are not closed under that thread; any thread.
     */
    void abandon()
    {
        abandoned = true;
    }

    /**
     * @param delivery what {@link #deliver} returned, or null if the results are pending.
     * @return one sentence for the summary.
     */
    String describe(final Delivery delivery)
    {
        if (delivery == null)
        {
            return String.format("PostgreSQL %s, table %s: results pending, not delivered (see the message on standard error)", url, sink.table());
        }
        return String.format("PostgreSQL %s, table %s: %,d results upserted (%,d rows inserted or raised to a higher version%s) in %,d transactions%s, "
                + "delivered up to output position %d (event offset %d)",
            url, sink.table(), delivery.results(), delivery.changed(),
            delivery.superseded() > 0 ? String.format("; rows deleted, superseded by sessions that grew: %,d", delivery.superseded()) : "", delivery.transactions(),
            delivery.resumedAfter() >= 0 ? ", resuming after position " + delivery.resumedAfter() : "", delivery.position(), delivery.sourceOffset());
    }

    @Override
    public void close()
    {
        if (abandoned)
        {
            return;
        }
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
