package dev.weir.cli;

import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.weir.journal.JournalDirectory;
import dev.weir.postgres.Delivery;

/**
 * Delivers a followed journal's results into PostgreSQL while it is processed: a {@code weir-postgres}
 * thread delivers what is new every interval, and on {@link #finish()} once more (after the pipeline
 * stopped) before it ends. A delivery that fails because the database is unreachable is reported on
 * standard error and retried at the next interval (the output journal keeps every result); a refusal
 * (a table or offsets that do not match) or any other failure is reported at once and stops the
 * thread; {@link #result()} throws it. The sink is used only on that thread (it opens the journal's
 * files there); {@link #finish()} and {@link #result()} are called by the command thread, after the
 * thread has ended.
 */
final class ContinuousDelivery
{
    private final PostgresDelivery postgres;
    private final JournalDirectory journal;
    private final long intervalMs;
    private final PrintStream err;
    private final CountDownLatch finishRequested = new CountDownLatch(1);
    private final Thread thread;

    private Delivery total;
    private volatile RuntimeException failure;

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
        while (true)
        {
            try
            {
                add(postgres.deliverQuietly(journal));
            }
            catch (final BadInputException ex)
            {
                err.println("weir: " + ex.getMessage() + " (delivery to PostgreSQL stopped; the run goes on)");
                failure = ex;
                return;
            }
            catch (final IllegalStateException ex)
            {
                if (last)
                {
                    failure = ex;
                    return;
                }
                err.println("weir: " + ex.getMessage() + " (retrying in " + intervalMs + " ms)");
            }
            catch (final RuntimeException ex)
            {
                err.println("weir: delivery to PostgreSQL failed: " + ex + " (delivery stopped; the run goes on)");
                failure = ex;
                return;
            }
            if (last)
            {
                return;
            }
            try
            {
                last = finishRequested.await(intervalMs, TimeUnit.MILLISECONDS);
            }
            catch (final InterruptedException ex)
            {
                last = true;
            }
        }
    }

    private void add(final Delivery d)
    {
        total = total == null ? d : new Delivery(total.resumedAfter(), d.position(), d.sourceOffset(), total.results() + d.results(),
            total.changed() + d.changed(), total.transactions() + d.transactions());
    }

    /**
     * Deliver once more (the pipeline has stopped, or failed) and wait for the thread to end. Throws
     * nothing: {@link #result()} reports how it went.
     */
    void finish()
    {
        finishRequested.countDown();
        boolean interrupted = false;
        while (true)
        {
            try
            {
                thread.join(); // uninterruptibly: the sink is closed after this returns, so its thread must have ended
                break;
            }
            catch (final InterruptedException ex)
            {
                interrupted = true;
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * @return everything delivered while following (after {@link #finish()}).
     * @throws RuntimeException the failure that stopped the delivery, if one did.
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
