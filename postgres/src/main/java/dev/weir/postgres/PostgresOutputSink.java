package dev.weir.postgres;

import java.sql.SQLException;

import dev.weir.engine.delivery.DeliveryUnavailableException;
import dev.weir.engine.delivery.OutputSink;
import dev.weir.journal.JournalDirectory;

/**
 * A {@link PostgresSink} as the engine's {@link OutputSink}, for continuous delivery
 * ({@code PipelineBuilder.deliverContinuously}): a database that fails or cannot be reached is
 * {@link DeliveryUnavailableException} (retried), a {@link SinkRefusedException} is a refusal (delivery stops),
 * and what the deliveries did is summed ({@link #delivered()}).
 * <p>
 * Same threads as the sink: {@link #deliver} on one delivering thread; {@link #delivered()},
 * {@link #heldPosition()}, {@link #pendingResults} and {@link #abort()} on any. The sink's creator closes the sink.
 */
public final class PostgresOutputSink implements OutputSink
{
    private final PostgresSink sink;
    private final String url;
    private volatile Delivery delivered;

    /**
     * @param sink    the sink, connected or deferred.
     * @param jdbcUrl its database, named (redacted) in messages.
     */
    public PostgresOutputSink(final PostgresSink sink, final String jdbcUrl)
    {
        this.sink = sink;
        this.url = PostgresSink.redacted(jdbcUrl);
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
