package dev.weir.postgres;

import java.sql.SQLException;
import java.util.Optional;

import dev.weir.engine.delivery.DeliveryUnavailableException;
import dev.weir.engine.delivery.OutputSink;
import dev.weir.journal.JournalDirectory;

/**
 * A {@link PostgresSink} as the engine's {@link OutputSink}, for continuous delivery
 * ({@code PipelineBuilder.deliverContinuously}): a database that fails or cannot be reached is
 * {@link DeliveryUnavailableException} (retried), a {@link SinkRefusedException} is a refusal (delivery stops),
 * and what the deliveries did is summed ({@link #delivered()}). {@link #connectOrDefer} makes one for a database that
 * may be down: it connects now if it can, and otherwise at the first delivery.
 * <p>
 * Same threads as the sink: {@link #deliver} on one delivering thread; {@link #delivered()},
 * {@link #heldPosition()}, {@link #pendingResults} and {@link #abort()} on any. The sink's creator closes the sink
 * ({@link #sink()} for one made by {@link #connectOrDefer}).
 */
public final class PostgresOutputSink implements OutputSink
{
    private final PostgresSink sink;
    private final String url;
    /** Why the connection waits for the first delivery, or null. */
    private final SQLException deferral;
    private volatile Delivery delivered;

    /**
     * @param sink    the sink, connected or deferred.
     * @param jdbcUrl its database, named (redacted) in messages.
     */
    public PostgresOutputSink(final PostgresSink sink, final String jdbcUrl)
    {
        this(sink, jdbcUrl, null);
    }

    private PostgresOutputSink(final PostgresSink sink, final String jdbcUrl, final SQLException deferral)
    {
        this.sink = sink;
        this.url = PostgresSink.redacted(jdbcUrl);
        this.deferral = deferral;
    }

    /**
     * Connect now, and create or check the tables, as {@link PostgresSink#connect(String, String, String, ResultsTableShape, int)}
     * does; or, when the database cannot be reached, make a sink that connects (and checks the tables) at its first
     * delivery, so that a database that is down delays the table, never the pipeline. A server that answers and
     * refuses is a refusal, not an outage: a login it refuses (SQL state class {@code 28}) or a database it does not
     * have ({@code 3D000}). Every other {@link SQLException} on connecting defers ({@link #deferral()} holds it).
     *
     * @param jdbcUrl   a PostgreSQL JDBC URL.
     * @param table     the results table (a lower-case identifier).
     * @param lateTable the late-events table, or null to pass late events over.
     * @param shape     the results table's columns: the pipeline's key and value columns.
     * @param batchSize outputs per transaction, at least 1.
     * @return the sink, connected or deferred; the caller closes its {@link #sink()}.
     * @throws SinkRefusedException     if the server refuses the login or has no such database ("cannot use PostgreSQL
     *                                  at URL: ..."), a table exists but does not match, or a name is not allowed.
     * @throws IllegalArgumentException if the batch size is less than 1.
     */
    public static PostgresOutputSink connectOrDefer(
        final String jdbcUrl, final String table, final String lateTable, final ResultsTableShape shape, final int batchSize)
    {
        try
        {
            return new PostgresOutputSink(PostgresSink.connect(jdbcUrl, table, lateTable, shape, batchSize), jdbcUrl, null);
        }
        catch (final SQLException ex)
        {
            final String state = ex.getSQLState() == null ? "" : ex.getSQLState();
            if (state.startsWith("28") || state.equals("3D000")) // the server answered: a login or database that does not exist
            {
                throw new SinkRefusedException("cannot use PostgreSQL at " + PostgresSink.redacted(jdbcUrl) + ": " + ex.getMessage());
            }
            return new PostgresOutputSink(PostgresSink.deferred(jdbcUrl, table, lateTable, shape, batchSize), jdbcUrl, ex);
        }
    }

    /**
     * @return the sink this delivers through.
     */
    public PostgresSink sink()
    {
        return sink;
    }

    /**
     * @return why {@link #connectOrDefer} could not reach the database, so that the sink connects at its first
     *         delivery; empty if it connected, or the sink was given to the constructor.
     */
    public Optional<SQLException> deferral()
    {
        return Optional.ofNullable(deferral);
    }

    /**
     * @throws DeliveryUnavailableException if the database fails or cannot be reached (the journal keeps every result).
     * @throws SinkRefusedException         as {@link PostgresSink#deliver} does.
     */
    @Override
    public void deliver(final JournalDirectory journal)
    {
        final Delivery delivery;
        try
        {
            delivery = sink.deliver(journal);
        }
        catch (final SQLException ex)
        {
            throw new DeliveryUnavailableException("delivery to PostgreSQL at " + url + " failed (the journal keeps every result): "
                + ex.getMessage(), ex);
        }
        final Delivery before = delivered;
        delivered = before == null ? delivery : before.followedBy(delivery);
    }

    /**
     * @return everything delivered through this so far, summed, or null before a delivery succeeded; any thread.
     */
    public Delivery delivered()
    {
        return delivered;
    }

    @Override
    public long heldPosition()
    {
        return sink.heldPosition();
    }

    @Override
    public long pendingResults(final JournalDirectory journal)
    {
        return sink.pendingResults(journal);
    }

    @Override
    public void abort()
    {
        sink.abort();
    }
}
