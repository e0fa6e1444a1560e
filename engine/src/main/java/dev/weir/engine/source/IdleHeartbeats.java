package dev.weir.engine.source;

import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Consumer;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.IdleStrategy;

import dev.weir.engine.agent.WakeableIdleStrategy;
import dev.weir.journal.EventJournal;
import dev.weir.journal.HeartbeatAppender;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.codec.EventConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The heartbeats of a following run with an idle timeout {@code T} (the pipeline builder's
 * {@code idleTimeout}, {@code weir run --follow --idle-timeout T}): an Agrona {@link Agent} that tails the
 * journal with its own reader and, when nothing has been appended for {@code T} of wall time, appends a
 * heartbeat whose event time is the newest time it has read (of an event or a heartbeat) plus the wall time
 * elapsed since it read it; then again every {@code T} while the journal stays quiet. Nothing before the first
 * event. Between two duty cycles it parks for a twentieth of {@code T} (1 to 50 ms).
 * <p>
 * Each heartbeat takes the journal's appender lock with a try-lock for that append only
 * ({@link HeartbeatAppender}): while an ingest holds it, the heartbeat is skipped (that appender is active).
 * The heartbeat is journal content: a resumed or replayed run applies it where it is, so the wall clock
 * decides only what is appended, never what a run of the journal computes.
 * <p>
 * If the journal cannot be read or a heartbeat appended, the heartbeats stop (the agent ends its duty cycle
 * with an expected {@link AgentTerminationException}): the failure is logged at WARN (SLF4J, logger
 * {@code dev.weir.engine.source.IdleHeartbeats}) and told to the listener given, and the run goes on.
 * <p>
 * Thread-safety: the reader and the appender are opened, used and closed by the agent's thread (its
 * {@link AgentRunner}'s); {@link #close()} is for the thread that owns the run.
 */
public final class IdleHeartbeats implements Agent, EventConsumer, AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(IdleHeartbeats.class);
    private static final int BATCH = 4096;

    private final JournalDirectory directory;
    private final long idleNanos;
    private final long pollNanos;
    private final Consumer<RuntimeException> stopped;
    private final WakeableIdleStrategy idle;
    private AgentRunner runner;
    private JournalReader reader;
    private HeartbeatAppender appender;
    /** When something was last read, or the last heartbeat appended, ns. */
    private long lastRead;
    /** When {@link #newest} last grew, ns. */
    private long newestRead;
    /** The newest event time read so far, of an event or a heartbeat, or -1 before the first event. */
    private long newest = -1;
    private boolean newestChanged;
    private boolean sawEvent;

    /**
     * @param directory     the journal followed.
     * @param idleTimeoutMs T, ms, &gt; 0.
     * @param stopped       told of the failure that stopped the heartbeats, on the agent's thread; or null.
     */
    public IdleHeartbeats(final JournalDirectory directory, final long idleTimeoutMs, final Consumer<RuntimeException> stopped)
    {
        if (idleTimeoutMs <= 0)
        {
            throw new IllegalArgumentException("an idle timeout must be > 0: " + idleTimeoutMs + " ms");
        }
        this.directory = directory;
        this.idleNanos = TimeUnit.MILLISECONDS.toNanos(idleTimeoutMs);
        this.pollNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(1), Math.min(TimeUnit.MILLISECONDS.toNanos(50), idleNanos / 20));
        this.stopped = stopped;
        this.idle = new WakeableIdleStrategy(pollNanos);
    }

    /**
     * Start the heartbeats.
     *
     * @param runners starts this agent, with the idle strategy given, on a thread of its own and returns its
     *                runner (a pipeline's: {@code PipelineThreads.startAgent}).
     * @return this.
     */
    public IdleHeartbeats start(final BiFunction<Agent, IdleStrategy, AgentRunner> runners)
    {
        runner = runners.apply(this, idle);
        return this;
    }

    /**
     * One duty cycle: read a batch of what was appended since the last; append a heartbeat if nothing was for
     * {@code T}.
     *
     * @return 1 after a full batch (more may wait: no park), else 0 (caught up: the runner parks).
     * @throws AgentTerminationException (expected) once the heartbeats have stopped on a failure.
     */
    @Override
    public int doWork()
    {
        try
        {
            if (reader == null)
            {
                reader = JournalReader.open(directory);
                appender = HeartbeatAppender.open(directory);
                lastRead = System.nanoTime();
                newestRead = lastRead;
            }
            return beat() == BATCH ? 1 : 0;
        }
        catch (final RuntimeException ex)
        {
            stop(ex);
            throw new AgentTerminationException(ex, true);
        }
    }

    /** @return the documents read. */
    private int beat()
    {
        final int read = reader.poll(this, BATCH);
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
        return read;
    }

    /** Close the reader and the appender. */
    @Override
    public void onClose()
    {
        try (JournalReader r = reader; HeartbeatAppender a = appender)
        {
            reader = null;
            appender = null;
        }
        catch (final RuntimeException ex)
        {
            stop(ex);
        }
    }

    private void stop(final RuntimeException ex)
    {
        LOG.warn("idle heartbeats of {} stopped; the run goes on without them", directory.root(), ex);
        if (stopped != null)
        {
            stopped.accept(ex);
        }
    }

    @Override
    public String roleName()
    {
        return "heartbeats";
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
     * Stop appending and wait for the agent's thread to end.
     */
    @Override
    public void close()
    {
        idle.close(runner);
    }
}
