package com.example.payments;

import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;

import dev.weir.csv.CsvIngest;
import dev.weir.engine.PipelineFailedException;
import dev.weir.engine.PipelineService;
import dev.weir.engine.PipelineState;
import dev.weir.engine.delivery.DeliveryListener;
import dev.weir.engine.delivery.DeliveryUnavailableException;
import dev.weir.engine.delivery.PendingDelivery;
import dev.weir.engine.emit.ResultListener;
import dev.weir.engine.emit.WindowResult;
import dev.weir.journal.codec.ResultKind;
import dev.weir.journal.JournalRefusedException;
import dev.weir.postgres.PostgresOutputSink;
import dev.weir.postgres.PostgresSink;
import dev.weir.postgres.ResultsTableShape;

/**
 * The service's card alerts, with Weir's libraries and no command line: payment files (CSV) are ingested into
 * the payments journal ({@code weir-csv}), {@link SpendRule} follows the journal, closing a quiet minute with
 * idle heartbeats, and its alerts and minute totals are delivered continuously into a PostgreSQL table
 * ({@code weir-postgres} through the engine's delivery layer). While the database is down the rule goes on, the
 * output journal keeps every result, and the delivery retries with backoff until the database is back. Each alert is
 * also printed as it fires, with the card and the amount as the payments wrote them
 * ({@code alert: card-1 spent 1000.00 in the minute from 0}).
 * <p>
 * Threads: {@link #ingest} from one thread at a time; {@link #processedOffset()}, {@link #lastIngestedOffset()},
 * {@link #resultsDelivered()}, {@link #state()}, {@link #awaitTermination()} and {@link #close()} from any (close
 * from a shutdown hook too). The delivery listener is called on the pipeline's delivery thread, the alerts printed
 * on its stage thread.
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
    private final PipelineService service;

    private CardAlerts(final Path journal, final String jdbcUrl, final String table, final DeliveryListener listener, final PrintStream alerts)
    {
        new PaymentsJournal(journal).close(); // the rule follows an existing journal
        this.csv = CsvIngest.into(journal).columns(SpendRule.COLUMNS).build();
        this.sink = PostgresSink.deferred(jdbcUrl, table, TABLE_SHAPE, PostgresSink.DEFAULT_BATCH); // connects at its first delivery
        this.abandoned = new AbandonedDelivery(listener);
        this.service = SpendRule.on(journal)
            .idleTimeout(IDLE_TIMEOUT)
            .deliverContinuously(new PostgresOutputSink(sink, jdbcUrl), DELIVERY_INTERVAL, abandoned)
            .onResult(new AlertPrinter(alerts))
            .buildService();
    }

    /**
     * Start following the payments journal and delivering into the table.
     *
     * @param journal  the payments journal, created if missing.
     * @param jdbcUrl  the database; it need not be reachable now.
     * @param table    the alerts table, created at the first delivery if missing.
     * @param listener told of the delivery's retries, its refusal and what is pending at the stop.
     * @return the running alerts, printing each alert on standard output.
     */
    public static CardAlerts start(final Path journal, final String jdbcUrl, final String table, final DeliveryListener listener)
    {
        return start(journal, jdbcUrl, table, listener, System.out);
    }

    /**
     * Start following the payments journal and delivering into the table, printing each alert where asked.
     *
     * @param journal  the payments journal, created if missing.
     * @param jdbcUrl  the database; it need not be reachable now.
     * @param table    the alerts table, created at the first delivery if missing.
     * @param listener told of the delivery's retries, its refusal and what is pending at the stop.
     * @param alerts   where each alert is printed, a line each.
     * @return the running alerts.
     */
    public static CardAlerts start(
        final Path journal, final String jdbcUrl, final String table, final DeliveryListener listener, final PrintStream alerts)
    {
        final CardAlerts started = new CardAlerts(journal, jdbcUrl, table, listener, alerts);
        started.service.start();
        return started;
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
        return service.pipeline().processedOffset();
    }

    /**
     * @return the alerts and minute totals committed into the table so far; any thread.
     */
    public long resultsDelivered()
    {
        return sink.resultsDelivered();
    }

    /** @return where the rule is in its life: RUNNING, then STOPPED once closed, or FAILED; any thread. */
    public PipelineState state()
    {
        return service.state();
    }

    /**
     * Wait until the alerts are closed (by another thread, or a shutdown hook) or the rule fails.
     *
     * @throws PipelineFailedException if the rule failed: the cause is what failed.
     * @throws InterruptedException    if interrupted while waiting.
     */
    public void awaitTermination() throws InterruptedException
    {
        service.awaitTermination();
    }

    /**
     * Stop: the rule processes what was ingested and checkpoints, the delivery delivers once more (for a few
     * seconds at most; what it leaves is told to the listener, and delivered by the next start), and the
     * connection is closed. Idempotent; any thread.
     *
     * @throws SQLException if the connection cannot be closed.
     */
    @Override
    public void close() throws SQLException
    {
        service.close();
        if (!abandoned.abandoned)
        {
            sink.close();
        }
    }

    /**
     * Prints each alert (the early row of a card's minute) as {@code alert: CARD spent SUM in the minute from START}:
     * the card's text and the sum at the amount's scale, from the result itself, into one reused line.
     */
    private static final class AlertPrinter implements ResultListener
    {
        private final PrintStream out;
        private final StringBuilder line = new StringBuilder(96);

        AlertPrinter(final PrintStream out)
        {
            this.out = out;
        }

        @Override
        public void onResult(final WindowResult result)
        {
            if (result.kind() != ResultKind.EARLY)
            {
                return;
            }
            line.setLength(0);
            line.append("alert: ").append(result.keyColumn("card")).append(" spent ");
            result.appendSum(line).append(" in the minute from ").append(result.windowStart());
            out.println(line);
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
