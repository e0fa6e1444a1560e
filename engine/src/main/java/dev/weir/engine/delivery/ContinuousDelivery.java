package dev.weir.engine.delivery;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.schema.WeirException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers a pipeline's outputs into an {@link OutputSink} while the pipeline runs: an Agrona {@link Agent} (run
 * by the pipeline on its thread {@code weir-<pipeline>-<run>-delivery}) that delivers what is new every interval,
 * and once more when the pipeline stops ({@link #finish()}).
 * <p>
 * A delivery that fails with {@link DeliveryUnavailableException} is retried with backoff: after the interval,
 * then twice as long each time up to {@value #MAX_BACKOFF_MS} ms, and at the interval again once a delivery
 * succeeds (the output journal keeps every result). Any other failure is a refusal: it is told to the
 * {@link DeliveryListener} and ends the delivery; the pipeline goes on.
 * <p>
 * A stop never waits for the target for long: {@link #finish()} asks for a last delivery and gives it the stop
 * grace ({@value #STOP_GRACE_MS} ms), then aborts the sink (a blocked call fails at once) and waits
 * {@value #ABORT_WAIT_MS} ms more; a thread still blocked (connecting to a server that does not answer) is left
 * to the JVM's exit. If the last delivery did not succeed, the listener is told what is pending
 * ({@link PendingDelivery}).
 * <p>
 * Logs (SLF4J, logger {@code dev.weir.engine.delivery.ContinuousDelivery}) a retry at WARN and a refusal at ERROR.
 * <p>
 * The sink is used on the agent's thread only, except its thread-safe abort and pending count; {@link #finish()}
 * is called by the thread that stops the pipeline.
 */
public final class ContinuousDelivery implements Agent
{
    /** The longest wait between two attempts while deliveries fail. */
    public static final long MAX_BACKOFF_MS = 30_000;
    /** How long a stop waits for the last delivery before it aborts the sink. */
    public static final long STOP_GRACE_MS = 5_000;
    /** How long it then waits for the agent to end. */
    public static final long ABORT_WAIT_MS = 2_000;

    private static final Logger LOG = LoggerFactory.getLogger(ContinuousDelivery.class);

    private final OutputSink sink;
    private final JournalDirectory journal;
    private final long intervalMs;
    private final DeliveryListener listener;
    private final NanoClock clock;
    private final long stopGraceMs;
    private final long abortWaitMs;
    private final CountDownLatch ended = new CountDownLatch(1);

    /** When the next delivery is due, on {@link #clock}; the agent's thread only. */
    private long dueNanos;
    /** Failed deliveries in a row; the agent's thread only. */
    private int failures;

    private volatile boolean lastRequested;
    private volatile boolean stopping;
    private volatile DeliveryUnavailableException pending;
    private volatile RuntimeException refusal;

    /**
     * @param sink       where to deliver.
     * @param journal    the pipeline's journal, whose output journal is delivered.
     * @param intervalMs how often to deliver what is new, ms (at least 1).
     * @param listener   told of retries, a refusal and what is pending at the stop.
     */
    public ContinuousDelivery(final OutputSink sink, final JournalDirectory journal, final long intervalMs, final DeliveryListener listener)
    {
        this(sink, journal, intervalMs, listener, SystemNanoClock.INSTANCE, STOP_GRACE_MS, ABORT_WAIT_MS);
    }

    ContinuousDelivery(
        final OutputSink sink,
        final JournalDirectory journal,
        final long intervalMs,
        final DeliveryListener listener,
        final NanoClock clock,
        final long stopGraceMs,
        final long abortWaitMs)
    {
        if (intervalMs < 1)
        {
            throw new IllegalArgumentException("a delivery interval must be at least 1 ms: " + intervalMs);
        }
        this.sink = sink;
        this.journal = journal;
        this.intervalMs = intervalMs;
        this.listener = listener;
        this.clock = clock;
        this.stopGraceMs = stopGraceMs;
        this.abortWaitMs = abortWaitMs;
    }

    @Override
    public void onStart()
    {
        dueNanos = clock.nanoTime(); // the first delivery at once
    }

    /**
     * Deliver when due, or the last time once the stop asked for it.
     *
     * @return 1 if it delivered (or tried to), else 0.
     * @throws AgentTerminationException once the delivery has ended (last delivery done, refused, or aborted).
     */
    @Override
    public int doWork()
    {
        final boolean last = lastRequested;
        if (!last && clock.nanoTime() - dueNanos < 0)
        {
            return 0;
        }
        if (!deliverOnce(last) || last || stopping)
        {
            throw new AgentTerminationException();
        }
        return 1;
    }

    /** @return false if a refusal ended the delivery. */
    private boolean deliverOnce(final boolean last)
    {
        try
        {
            sink.deliver(journal);
            pending = null;
            failures = 0;
            dueNanos = clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(intervalMs);
            return true;
        }
        catch (final DeliveryUnavailableException ex)
        {
            pending = ex;
            failures++;
            final long backoff = backoff(failures);
            dueNanos = clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoff);
            if (!last && !stopping)
            {
                LOG.warn("delivery pending, retrying in {} ms: {}", backoff, ex.getMessage());
                listener.onRetry(ex, backoff);
            }
            return true;
        }
        catch (final RuntimeException ex)
        {
            if (ex instanceof WeirException)
            {
                LOG.error("delivery refused, it stops (the pipeline goes on): {}", ex.getMessage());
            }
            else
            {
                LOG.error("delivery failed, it stops (the pipeline goes on)", ex);
            }
            refusal = ex;
            listener.onStopped(ex);
            return false;
        }
    }

    /** The wait after the n-th failure in a row: the interval, doubled each time, at most {@link #MAX_BACKOFF_MS}. */
    private long backoff(final int failuresInARow)
    {
        return Math.min(MAX_BACKOFF_MS, intervalMs << Math.min(failuresInARow - 1, 20));
    }

    @Override
    public void onClose()
    {
        ended.countDown();
    }

    @Override
    public String roleName()
    {
        return "delivery";
    }

    /**
     * Deliver once more (the pipeline has stopped, or failed), and wait for the agent to end, boundedly (see the
     * class comment); tell the listener what is pending, if anything. Throws nothing. Called once, by the thread
     * that stops the pipeline, after its last output is in the output journal.
     *
     * @return true if the agent ended (its runner can be closed without blocking); false if it is abandoned.
     */
    public boolean finish()
    {
        lastRequested = true;
        boolean done = await(stopGraceMs);
        if (!done)
        {
            stopping = true;
            sink.abort(); // a delivery blocked on a target that hangs fails now
            done = await(abortWaitMs);
        }
        final DeliveryUnavailableException undelivered = pending;
        if (refusal == null && (!done || undelivered != null))
        {
            final String reason = !done || undelivered == null
                ? "it did not answer within " + (stopGraceMs + abortWaitMs) / 1_000 + " s of the stop"
                : undelivered.getCause() == null ? undelivered.getMessage() : undelivered.getCause().getMessage();
            listener.onPending(new PendingDelivery(sink.pendingResults(journal), sink.heldPosition() == OutputSink.UNKNOWN, reason,
                undelivered, !done));
        }
        return done;
    }

    /** Wait for the agent to end for up to {@code ms}, not interruptibly (the interrupt is kept); true if it ended. */
    private boolean await(final long ms)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        boolean interrupted = false;
        try
        {
            while (true)
            {
                try
                {
                    return ended.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                }
                catch (final InterruptedException ex)
                {
                    interrupted = true;
                }
            }
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
     * @return the refusal that ended the delivery, or null; any thread.
     */
    public RuntimeException refusal()
    {
        return refusal;
    }
}
