package dev.weir.cli;

import java.sql.SQLException;

import dev.weir.engine.delivery.DeliveryListener;
import dev.weir.engine.delivery.DeliveryUnavailableException;
import dev.weir.engine.delivery.OutputSink;
import dev.weir.engine.delivery.PendingDelivery;
import dev.weir.journal.JournalDirectory;
import dev.weir.postgres.Delivery;
import dev.weir.postgres.PostgresOutputSink;
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
 * them, so the next run delivers them.
 * <p>
 * A following run delivers continuously through the engine ({@link #sink()}, given to
 * {@code PipelineBuilder.deliverContinuously}); as that delivery's {@link DeliveryListener} this prints its
 * retries, its refusal and what is pending at the stop on standard error, and {@link #result()} gives the outcome.
 * <p>
 * Not thread-safe: one delivering thread; the listener's methods and {@link #pendingReport} may be called from
 * another.
 */
final class PostgresDelivery implements AutoCloseable, DeliveryListener
{
    private final PostgresSink sink;
    private final PostgresOutputSink output;
    private final String url;
    private volatile boolean abandoned;
    /** What ended the continuous delivery, or made it leave results pending; null while it delivers. */
    private volatile RuntimeException failure;

    private PostgresDelivery(final PostgresOutputSink output, final String jdbcUrl)
    {
        this.sink = output.sink();
        this.output = output;
        this.url = PostgresSink.redacted(jdbcUrl);
    }

    /**
     * @param jdbcUrl   the database.
     * @param table     the results table.
     * @param lateTable the late-events table, or null to pass late events over.
     * @param shape     its columns: the pipeline's key and value columns.
     * @param batchSize outputs per transaction.
     * @return a delivery, connected, or deferred to its first delivery (said on standard error) if the database cannot
     *         be reached.
     */
    static PostgresDelivery connect(final String jdbcUrl, final String table, final String lateTable, final ResultsTableShape shape,
        final int batchSize)
    {
        checkUrl(jdbcUrl);
        if (batchSize < 1)
        {
            throw new BadInputException("--jdbc-batch must be at least 1: " + batchSize);
        }
        final PostgresOutputSink output;
        try
        {
            output = PostgresOutputSink.connectOrDefer(jdbcUrl, table, lateTable, shape, batchSize);
        }
        catch (final SinkRefusedException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
        output.deferral().ifPresent(ex -> System.err.println("weir: PostgreSQL at " + PostgresSink.redacted(jdbcUrl) + " cannot be reached now ("
            + ex.getMessage() + "): ingest, processing and files go on, and the results are delivered when it can be reached (its tables are "
            + "checked then)"));
        return new PostgresDelivery(output, jdbcUrl);
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
            output.deliver(journal);
            return output.delivered();
        }
        catch (final SinkRefusedException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
        catch (final DeliveryUnavailableException ex)
        {
            throw new DeliveryPendingException(pendingReport(journal, ex.getCause().getMessage()), ex, false);
        }
    }

    /**
     * @return the sink as the engine's delivery layer sees it, for a continuous delivery.
     */
    OutputSink sink()
    {
        return output;
    }

    @Override
    public void onRetry(final DeliveryUnavailableException cause, final long backoffMillis)
    {
        System.err.println("weir: " + cause.getMessage() + " (retrying in " + backoffMillis + " ms)");
    }

    @Override
    public void onStopped(final RuntimeException cause)
    {
        if (cause instanceof SinkRefusedException)
        {
            System.err.println("weir: " + cause.getMessage() + " (delivery to PostgreSQL stopped; the run goes on)");
            failure = new BadInputException(cause.getMessage());
        }
        else
        {
            System.err.println("weir: delivery to PostgreSQL failed: " + cause + " (delivery stopped; the run goes on)");
            failure = cause;
        }
    }

    @Override
    public void onPending(final PendingDelivery pending)
    {
        abandoned = pending.abandoned(); // a thread still blocked: the JVM's exit ends it; the journal's files stay open under it
        final String report = pendingReport(pending.atMost(), pending.results(), pending.reason());
        System.err.println("weir: " + report);
        System.err.flush();
        failure = new DeliveryPendingException(report, pending.cause(), true);
    }

    /**
     * @return everything the continuous delivery delivered (once the pipeline stopped).
     * @throws RuntimeException the failure that stopped the delivery, or a {@link DeliveryPendingException} if
     *                          the last delivery did not succeed.
     */
    Delivery result()
    {
        if (failure != null)
        {
            throw failure;
        }
        return output.delivered();
    }

    /**
     * @param journal the journal.
     * @param reason  why they are not delivered.
     * @return a sentence: how many results are not delivered, why, and that the next run delivers them; any thread.
     */
    String pendingReport(final JournalDirectory journal, final String reason)
    {
        return pendingReport(sink.heldPosition() == PostgresSink.UNKNOWN, sink.pendingResults(journal), reason);
    }

    private String pendingReport(final boolean atMost, final long results, final String reason)
    {
        return String.format("%s%,d results are not delivered to PostgreSQL at %s, table %s (%s): the output journal keeps them, "
            + "and the next run with --jdbc-url delivers them", atMost ? "up to " : "", results, url, sink.table(), reason);
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
