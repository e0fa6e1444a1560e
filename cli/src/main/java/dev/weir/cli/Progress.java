package dev.weir.cli;

import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AgentTerminationException;

import dev.weir.engine.agent.WakeableIdleStrategy;

/**
 * A one-line progress display for long work on a terminal: events, events/s and the journal offset (or
 * another unit, without an offset), redrawn once a second on standard error. It shows only when standard error is a
 * {@link Terminal} (or {@code WEIR_PROGRESS=1}), so no carriage return reaches a pipe, a file or a log. It is an Agrona {@link Agent} on an
 * {@link AgentRunner} of its own, a daemon thread named {@code weir-progress} (no pipeline's thread: it
 * belongs to the command). The sampled suppliers must be safe to call from that thread; if one throws, the
 * display stops (its stack trace printed once). {@link #close()} stops it and ends the line.
 */
final class Progress implements Agent, AutoCloseable
{
    private static final long PERIOD_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final String label;
    private final String unit;
    private final LongSupplier events;
    private final LongSupplier offset;
    private final PrintStream err;
    private final WakeableIdleStrategy idle = new WakeableIdleStrategy(PERIOD_NANOS);
    private final long started = System.nanoTime();
    /** The display's runner, or null when not on a terminal. */
    private AgentRunner runner;
    private boolean running = true;
    private boolean printed;
    /** The count and time of the last line; the display thread's only. */
    private long lastEvents;
    private long lastNanos = started;

    private Progress(final String label, final String unit, final LongSupplier events, final LongSupplier offset, final PrintStream err)
    {
        this.label = label;
        this.unit = unit;
        this.events = events;
        this.offset = offset;
        this.err = err;
    }

    /**
     * @param label  what is being done, e.g. {@code ingest}.
     * @param events events done so far.
     * @param offset the current journal offset, or -1.
     * @return a started display, or an inert one when not on a terminal.
     */
    static Progress start(final String label, final LongSupplier events, final LongSupplier offset)
    {
        return start(new Progress(label, "events", events, offset, System.err));
    }

    /**
     * @param label what is being done, e.g. {@code produce}.
     * @param unit  what is counted, e.g. {@code lines}.
     * @param done  how many so far.
     * @return a started display (count, count per second, seconds), or an inert one when not on a terminal.
     */
    static Progress start(final String label, final String unit, final LongSupplier done)
    {
        return start(new Progress(label, unit, done, null, System.err));
    }

    private static Progress start(final Progress progress)
    {
        if (enabled())
        {
            progress.runner = new AgentRunner(progress.idle, Throwable::printStackTrace, null, progress);
            AgentRunner.startOnThread(progress.runner, task ->
            {
                final Thread thread = new Thread(task);
                thread.setDaemon(true);
                return thread;
            });
        }
        return progress;
    }

    private static boolean enabled()
    {
        return "1".equals(System.getenv("WEIR_PROGRESS")) || Terminal.standardError();
    }

    /**
     * One duty cycle: print the line if a second has passed since the last.
     *
     * @return 0, so the runner parks for a second.
     * @throws AgentTerminationException if a supplier threw: the display stops.
     */
    @Override
    public int doWork()
    {
        final long now = System.nanoTime();
        if (now - lastNanos < PERIOD_NANOS)
        {
            return 0;
        }
        try
        {
            final long done = events.getAsLong();
            final double rate = (done - lastEvents) * 1e9 / Math.max(1, now - lastNanos);
            lastEvents = done;
            lastNanos = now;
            synchronized (this)
            {
                if (running)
                {
                    final String at = offset == null ? "" : "  offset " + offset.getAsLong();
                    err.printf("\r%s: %,d %s  %,.0f %s/s%s  (%ds)   ",
                        label, done, unit, rate, unit, at, (now - started) / 1_000_000_000L);
                    err.flush();
                    printed = true;
                }
            }
        }
        catch (final RuntimeException ex)
        {
            throw new AgentTerminationException(ex);
        }
        return 0;
    }

    @Override
    public String roleName()
    {
        return "weir-progress";
    }

    @Override
    public void close()
    {
        synchronized (this)
        {
            running = false;
            if (printed)
            {
                err.println();
            }
        }
        if (runner != null)
        {
            idle.close(runner);
        }
    }
}
