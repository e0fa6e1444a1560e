package com.example.payments;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;

import dev.weir.csv.CsvIngest;
import dev.weir.engine.Pipeline;
import dev.weir.engine.delivery.DeliveryListener;
import dev.weir.engine.delivery.DeliveryUnavailableException;
import dev.weir.engine.delivery.PendingDelivery;
import dev.weir.journal.JournalRefusedException;
import dev.weir.postgres.PostgresOutputSink;
import dev.weir.postgres.PostgresSink;
import dev.weir.postgres.ResultsTableShape;

/**
 * The service's card alerts, with Weir's libraries and no command line: payment files (CSV) are ingested into
 * the payments journal ({@code weir-csv}), {@link SpendRule} follows the journal, closing a quiet minute with
 * idle heartbeats, and its alerts and minute totals are delivered continuously into a PostgreSQL table
 * ({@code weir-postgres} through the engine's delivery layer). While the database is down the rule goes on, the
 * output journal keeps every result, and the delivery retries with backoff until the database is back.
 * <p>
 * Threads: {@link #ingest} from one thread at a time; {@link #processedOffset()}, {@link #lastIngestedOffset()}
 * and {@link #resultsDelivered()} from any; {@link #close()} from the thread that started it. The listener is called on
 * the pipeline's delivery thread.
 */
public final class CardAlerts implements AutoCloseable
{
    /** How often what is new is delivered. */
    public static final Duration DELIVERY_INTERVAL = Duration.ofMillis(200);
    /** How long the journal stays quiet before a heartbeat closes what the quiet left open. */
    public static final Duration IDLE_TIMEOUT = Duration.ofMillis(500);
    /** The alerts table's columns: key card, value amount, with the early column of the rule's alert. */
    public static final ResultsTableShape TABLE_SHAPE = ResultsTableShape.of(SpendRule.COLUMNS, new int[] {0}, 1, 0).withEarly();

    /**
     * An ingest that meets a heartbeat in the middle of its one append (the journal's lock is taken for it) tries
     * again, this many times a millisecond apart: about a second, then the refusal is the caller's.
     */
    private static final int LOCK_ATTEMPTS = 1_000;

    private final CsvIngest csv;
    private final PostgresSink sink;
    private final AbandonedDelivery abandoned;
    private final Pipeline pipeline;

    private CardAlerts(final Path journal, final String jdbcUrl, final String table, final DeliveryListener listener)
    {
        new PaymentsJournal(journal).close(); // the rule follows an existing journal
        this.csv = CsvIngest.into(journal).columns(SpendRule.COLUMNS).build();
        this.sink = PostgresSink.deferred(jdbcUrl, table, TABLE_SHAPE, PostgresSink.DEFAULT_BATCH); // connects at its first delivery
        this.abandoned = new AbandonedDelivery(listener);
        this.pipeline = SpendRule.on(journal)
            .idleTimeout(IDLE_TIMEOUT)
            .deliverContinuously(new PostgresOutputSink(sink, jdbcUrl), DELIVERY_INTERVAL, abandoned)
            .build();
    }

    /**
     * Start following the payments journal and delivering into the table.
     *
     * @param journal  the payments journal, created if missing.
     * @param jdbcUrl  the database; it need not be reachable now.
     * @param table    the alerts table, created at the first delivery if missing.
     * @param listener told of the delivery's retries, its refusal and what is pending at the stop.
     * @return the running alerts.
     */
    public static CardAlerts start(final Path journal, final String jdbcUrl, final String table, final DeliveryListener listener)
    {
        final CardAlerts alerts = new CardAlerts(journal, jdbcUrl, table, listener);
        alerts.pipeline.start();
        return alerts;
    }

    /**
     * Ingest a payments file, exactly once (a file ingested again continues after its last line ingested).
     *
     * @param payments a CSV with the header of {@link SpendRule#COLUMNS}.
     * @return what the ingest did.
     * @throws dev.weir.csv.CsvInputException if the file is refused (missing, or not of these columns).
     * @throws JournalRefusedException        if another appender keeps the journal for longer than about a second.
     */
    public CsvIngest.Summary ingest(final Path payments)
    {
        for (int attempt = 1; ; attempt++)
        {
            try
            {
                return csv.ingest(payments);
            }
            catch (final JournalRefusedException ex)
            {
                // a heartbeat holds the journal's lock for one append: try again (nothing was ingested)
                if (attempt == LOCK_ATTEMPTS)
                {
                    throw ex;
                }
                try
                {
                    Thread.sleep(1);
                }
                catch (final InterruptedException interrupted)
                {
                    Thread.currentThread().interrupt();
                    throw ex;
                }
            }
        }
    }

    /**
     * @return the journal offset of the last payment ingested so far, or -1; any thread.
     */
    public long lastIngestedOffset()
    {
        return csv.lastOffset();
    }

    /**
     * @return the journal offset the rule has processed up to, or -1; any thread.
     */
    public long processedOffset()
    {
        return pipeline.processedOffset();
    }

    /**
     * @return the alerts and minute totals committed into the table so far; any thread.
     */
    public long resultsDelivered()
    {
        return sink.resultsDelivered();
    }

    /**
     * Stop: the rule processes what was ingested and checkpoints, the delivery delivers once more (for a few
     * seconds at most; what it leaves is told to the listener, and delivered by the next start), and the
     * connection is closed.
     *
     * @throws SQLException if the connection cannot be closed.
     */
    @Override
    public void close() throws SQLException
    {
        pipeline.close();
        if (!abandoned.abandoned)
        {
            sink.close();
        }
    }

    /** The service's listener, noting a last delivery still blocked at the stop: its connection is left to the JVM's exit. */
    private static final class AbandonedDelivery implements DeliveryListener
    {
        private final DeliveryListener listener;
        private volatile boolean abandoned;

        AbandonedDelivery(final DeliveryListener listener)
        {
            this.listener = listener;
        }

        @Override
        public void onRetry(final DeliveryUnavailableException cause, final long backoffMillis)
        {
            listener.onRetry(cause, backoffMillis);
        }

        @Override
        public void onStopped(final RuntimeException cause)
        {
            listener.onStopped(cause);
        }

        @Override
        public void onPending(final PendingDelivery pending)
        {
            abandoned = pending.abandoned();
            listener.onPending(pending);
        }
    }
}
