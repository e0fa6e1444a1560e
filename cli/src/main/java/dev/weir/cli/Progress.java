package dev.weir.cli;

import java.io.PrintStream;
import java.util.function.LongSupplier;

/**
 * A one-line progress display for long work on a terminal: events, events/s and the journal offset (or
 * another unit, without an offset), refreshed once a second on standard error. It shows only when standard output is a terminal (or
 * {@code WEIR_PROGRESS=1}), so scripts and logs stay clean. The sampled suppliers must be safe to call
 * from the display thread. {@link #close()} stops it and ends the line.
 */
final class Progress implements AutoCloseable
{
    private final Thread thread;
    private final PrintStream err;
    private volatile boolean running = true;
    private boolean printed;

    private Progress(final String label, final String unit, final LongSupplier events, final LongSupplier offset, final PrintStream err)
    {
        this.err = err;
        this.thread = new Thread(() -> loop(label, unit, events, offset), "weir-progress");
        this.thread.setDaemon(true);
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
            progress.thread.start();
        }
        return progress;
    }

    private static boolean enabled()
    {
        return "1".equals(System.getenv("WEIR_PROGRESS")) || System.console() != null;
    }

    private void loop(final String label, final String unit, final LongSupplier events, final LongSupplier offset)
    {
        final long started = System.nanoTime();
        long lastEvents = 0;
        long lastNanos = started;
        while (running)
        {
            try
            {
                Thread.sleep(1000);
            }
            catch (final InterruptedException ex)
            {
                return;
            }
            final long now = System.nanoTime();
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
        thread.interrupt();
    }
}
