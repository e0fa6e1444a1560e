package dev.weir.cli;

import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.weir.journal.JournalDirectory;
import dev.weir.postgres.Delivery;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers a followed journal's results into PostgreSQL while it is processed: a {@code weir-postgres}
 * thread delivers what is new every interval, and on {@link #finish()} once more (after the pipeline
 * stopped) before it ends. A delivery that fails on the database (down, or hanging past the session's
 * timeouts) is reported on standard error and retried with backoff: after the interval, then twice as
 * long each time up to {@value #MAX_BACKOFF_MS} ms, and at the interval again once a delivery succeeds
 * (the output journal keeps every result). A refusal (a table or offsets that do not match) or any other
 * failure is reported at once and stops the thread; {@link #result()} throws it.
 * <p>
 * A stop never waits for the database for long: {@link #finish()} gives the thread
 * {@value #STOP_GRACE_MS} ms for its last delivery, then aborts the connection (a blocked call fails at
 * once) and waits {@value #ABORT_WAIT_MS} ms more; a thread still blocked (connecting to a server that
 * does not answer) is left to the JVM's exit, the sink unclosed. If the last delivery did not succeed,
 * what is not delivered is reported on standard error and {@link #result()} throws
 * {@link DeliveryPendingException}.
 * <p>
 * The sink is used only on that thread (it opens the journal's files there), except its thread-safe
 * abort and pending count; {@link #finish()} and {@link #result()} are called by the command thread.
 * <p>
 * Besides standard error, it logs (SLF4J) a retry at WARN and a stop at ERROR.
 */
final class ContinuousDelivery
{
    private static final Logger LOG = LoggerFactory.getLogger(ContinuousDelivery.class);

    /** The longest wait between two attempts while deliveries fail. */
    static final long MAX_BACKOFF_MS = 30_000;
    /** How long a stop waits for the last delivery before it aborts the connection. */
    static final long STOP_GRACE_MS = 5_000;
    /** How long it then waits for the thread to end. */
    static final long ABORT_WAIT_MS = 2_000;

    private final PostgresDelivery postgres;
    private final JournalDirectory journal;
    private final long intervalMs;
    private final PrintStream err;
    private final CountDownLatch finishRequested = new CountDownLatch(1);
    private final Thread thread;

    private volatile Delivery total;
    private volatile RuntimeException failure;
    private volatile DeliveryPendingException pending;
    private volatile boolean stopping;

    ContinuousDelivery(final PostgresDelivery postgres, final JournalDirectory journal, final long intervalMs, final PrintStream err)
    {
        this.postgres = postgres;
        this.journal = journal;
        this.intervalMs = intervalMs;
        this.err = err;
        this.thread = new Thread(this::run, "weir-postgres");
        thread.setDaemon(true);
    }

    ContinuousDelivery start()
    {
        thread.start();
        return this;
    }

    private void run()
    {
        boolean last = false;
        int failures = 0;
        while (true)
        {
            try
            {
                add(postgres.deliverQuietly(journal));
                pending = null;
                failures = 0;
            }
            catch (final DeliveryPendingException ex)
            {
                pending = ex;
                failures++;
                if (!last && !stopping)
                {
                    err.println("weir: " + ex.getMessage() + " (retrying in " + backoff(failures) + " ms)");
                    LOG.warn("delivery to PostgreSQL pending, retrying in {} ms: {}", backoff(failures), ex.getMessage());
                }
            }
            catch (final BadInputException ex)
            {
                err.println("weir: " + ex.getMessage() + " (delivery to PostgreSQL stopped; the run goes on)");
                LOG.error("delivery to PostgreSQL stopped: {}", ex.getMessage());
                failure = ex;
                return;
            }
            catch (final RuntimeException ex)
            {
                err.println("weir: delivery to PostgreSQL failed: " + ex + " (delivery stopped; the run goes on)");
                LOG.error("delivery to PostgreSQL stopped", ex);
                failure = ex;
                return;
            }
            if (last || stopping)
            {
                return;
            }
            try
            {
                last = finishRequested.await(failures == 0 ? intervalMs : backoff(failures), TimeUnit.MILLISECONDS);
            }
            catch (final InterruptedException ex)
            {
                last = true;
            }
        }
    }

    /** The wait after the n-th failure in a row: the interval, doubled each time, at most {@link #MAX_BACKOFF_MS}. */
    private long backoff(final int failures)
    {
        return Math.min(MAX_BACKOFF_MS, intervalMs << Math.min(failures - 1, 20));
    }

    private void add(final Delivery d)
    {
        final Delivery sum = total;
        total = sum == null ? d : new Delivery(sum.resumedAfter(), d.position(), d.sourceOffset(), sum.results() + d.results(),
            sum.changed() + d.changed(), sum.superseded() + d.superseded(), sum.transactions() + d.transactions());
    }

    /**
     * Deliver once more (the pipeline has stopped, or failed), and wait for the thread to end, boundedly (see
     * the class comment). Throws nothing: {@link #result()} reports how it went.
     */
    void finish()
    {
        finishRequested.countDown();
        if (!join(STOP_GRACE_MS))
        {
            stopping = true;
            postgres.abort(); // a delivery blocked on a database that hangs fails now
            if (!join(ABORT_WAIT_MS))
            {
                postgres.abandon(); // still blocked (connecting): the JVM's exit ends it; the journal's files stay open under it
            }
        }
        final DeliveryPendingException undelivered = pending;
        if (failure == null && (thread.isAlive() || undelivered != null))
        {
            final String reason = thread.isAlive() || undelivered == null
                ? "it did not answer within " + (STOP_GRACE_MS + ABORT_WAIT_MS) / 1_000 + " s of the stop"
                : undelivered.getCause() == null ? undelivered.getMessage() : undelivered.getCause().getMessage();
            final String report = postgres.pendingReport(journal, reason);
            err.println("weir: " + report);
            err.flush();
            failure = new DeliveryPendingException(report, undelivered, true);
        }
    }

    /** Join the thread for up to {@code ms}, not interruptibly (the interrupt is kept); true if it ended. */
    private boolean join(final long ms)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        boolean interrupted = false;
        try
        {
            while (thread.isAlive())
            {
                final long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0)
                {
                    return false;
                }
                try
                {
                    thread.join(left);
                }
                catch (final InterruptedException ex)
                {
                    interrupted = true;
                }
            }
            return true;
        }
        finally
        {
            if (interrupted)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * @return everything delivered while following (after {@link #finish()}).
     * @throws RuntimeException the failure that stopped the delivery, if one did, or a
     *                          {@link DeliveryPendingException} if the last delivery did not succeed.
     */
    Delivery result()
    {
        if (failure != null)
        {
            throw failure;
        }
        return total;
    }
}
