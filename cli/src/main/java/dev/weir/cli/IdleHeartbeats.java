package dev.weir.cli;

import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import dev.weir.journal.EventConsumer;
import dev.weir.journal.EventJournal;
import dev.weir.journal.HeartbeatAppender;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;

/**
 * The heartbeats of {@code weir run --follow --idle-timeout T}: on its own thread, tails the journal with its
 * own reader and, when nothing has been appended for {@code T} of wall time, appends a heartbeat whose event
 * time is the newest time it has read (of an event or a heartbeat) plus the wall time elapsed since it read
 * it; then again every {@code T} while the journal stays quiet. Nothing before the first event.
 * <p>
 * Each heartbeat takes the journal's appender lock with a try-lock for that append only
 * ({@link HeartbeatAppender}): while an ingest holds it, the heartbeat is skipped (that appender is active).
 * The heartbeat is journal content: a resumed or replayed run applies it where it is, so the wall clock
 * decides only what is appended, never what a run of the journal computes.
 * <p>
 * {@link #start} and {@link #close()} are called on the command thread; the reader and the appender are
 * owned by the heartbeat thread.
 */
final class IdleHeartbeats implements Runnable, EventConsumer, AutoCloseable
{
    private static final int BATCH = 4096;

    private final JournalDirectory directory;
    private final long idleNanos;
    private final long pollNanos;
    private final PrintStream err;
    private final Thread thread;
    private volatile boolean stopped;
    /** The newest event time read so far, of an event or a heartbeat, or -1 before the first event. */
    private long newest = -1;
    private boolean newestChanged;
    private boolean sawEvent;

    private IdleHeartbeats(final JournalDirectory directory, final long idleTimeoutMs, final PrintStream err)
    {
        this.directory = directory;
        this.idleNanos = TimeUnit.MILLISECONDS.toNanos(idleTimeoutMs);
        this.pollNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(1), Math.min(TimeUnit.MILLISECONDS.toNanos(50), idleNanos / 20));
        this.err = err;
        this.thread = new Thread(this, "weir-heartbeats");
        this.thread.setDaemon(true);
    }

    /**
     * @param directory     the journal followed.
     * @param idleTimeoutMs T, ms, &gt; 0.
     * @param err           where a failure to append is reported (the run goes on without heartbeats).
     * @return the heartbeats, started.
     */
    static IdleHeartbeats start(final JournalDirectory directory, final long idleTimeoutMs, final PrintStream err)
    {
        assert idleTimeoutMs > 0 : "an idle timeout";
        final IdleHeartbeats heartbeats = new IdleHeartbeats(directory, idleTimeoutMs, err);
        heartbeats.thread.start();
        return heartbeats;
    }

    @Override
    public void run()
    {
        try (JournalReader reader = JournalReader.open(directory);
             HeartbeatAppender appender = HeartbeatAppender.open(directory))
        {
            long lastRead = System.nanoTime();
            long newestRead = lastRead;
            while (!stopped)
            {
                int read = 0;
                int n;
                while (!stopped && (n = reader.poll(this, BATCH)) > 0)
                {
                    read += n;
                }
                final long now = System.nanoTime();
                if (read > 0)
                {
                    lastRead = now;
                    if (newestChanged)
                    {
                        newestRead = now;
                        newestChanged = false;
                    }
                }
                else if (sawEvent && now - lastRead >= idleNanos)
                {
                    final long time = Math.min(EventJournal.MAX_EVENT_TIME, newest + TimeUnit.NANOSECONDS.toMillis(now - newestRead));
                    appender.tryAppend(time); // skipped (-1) while another appender holds the lock: it is active
                    lastRead = now; // again after T while the journal stays quiet
                }
                LockSupport.parkNanos(pollNanos);
            }
        }
        catch (final RuntimeException ex)
        {
            err.println("weir: idle heartbeats stopped: " + ex.getMessage());
            err.flush();
        }
    }

    @Override
    public void onEvent(final long offset, final long eventId, final long eventTime, final int keyId, final long value)
    {
        sawEvent = true;
        seen(eventTime);
    }

    @Override
    public void onHeartbeat(final long offset, final long eventTime)
    {
        seen(eventTime);
    }

    private void seen(final long eventTime)
    {
        if (eventTime > newest)
        {
            newest = eventTime;
            newestChanged = true;
        }
    }

    /**
     * Stop appending and wait for the thread to end.
     */
    @Override
    public void close()
    {
        stopped = true;
        LockSupport.unpark(thread);
        try
        {
            thread.join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
