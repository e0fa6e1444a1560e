package dev.weir.engine;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import dev.weir.engine.metrics.RetentionCounters;
import dev.weir.engine.retention.JournalRetention;
import dev.weir.engine.retention.RetentionReport;
import dev.weir.journal.JournalClock;
import dev.weir.journal.JournalDirectory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The automatic retention of a following run ({@link PipelineBuilder#retention}): a thread of the run's own
 * ({@link PipelineThreads#retention}) that reads the journal clock every {@value #POLL_MILLIS} ms of wall time
 * and, once {@link #periodMillis(long)} of journal time has passed since its last step (at once when it
 * starts), takes one step ({@link JournalRetention#applyIfFree}: skipped while another process's step holds
 * the journal). Each step reads the retention floor from disk: this run's newest durable checkpoint holds it,
 * never its reader's position in memory, so a crash still resumes from a checkpoint whose cycles are there.
 * <p>
 * A step that fails is logged at WARN (SLF4J, logger {@code dev.weir.engine.FollowingRetention}), counted, and
 * tried again at the next period; it never fails the run. Steps that remove cycles are logged at INFO.
 * Nothing runs on the threads that process events.
 * <p>
 * {@link #start()} and {@link #close()} are for the thread that owns the run; the counters have the retention
 * thread as their one writer.
 */
final class FollowingRetention implements AutoCloseable
{
    /** How often, in wall time, the thread reads the journal clock to see whether a period has passed. */
    static final long POLL_MILLIS = 100;
    /** The longest period between two steps, in journal time. */
    static final long MAX_PERIOD_MILLIS = 10_000;

    private static final Logger LOG = LoggerFactory.getLogger(FollowingRetention.class);

    private final JournalDirectory journal;
    private final long keepMillis;
    private final Path archive;
    private final long periodMillis;
    private final RetentionCounters counters;
    private final Thread thread;
    /** Journal time of the last held-back warning; the retention thread's only. */
    private long lastHeldWarning = Long.MIN_VALUE / 2;

    private volatile boolean running = true;

    /**
     * @param journal    the journal (the run's view of it: every pipeline's floor is read).
     * @param keepMillis how long a cycle is kept after it ends, ms.
     * @param archive    where removed cycles go, or null to delete them.
     * @param counters   where steps are counted.
     * @param threads    the run's threads, which make the retention thread.
     */
    FollowingRetention(
        final JournalDirectory journal, final long keepMillis, final Path archive, final RetentionCounters counters, final PipelineThreads threads)
    {
        this.journal = journal;
        this.keepMillis = keepMillis;
        this.archive = archive;
        this.periodMillis = periodMillis(journal.rollCycle().lengthMillis());
        this.counters = counters;
        this.thread = threads.retention(this::run);
    }

    /**
     * @param cycleMillis the journal's roll cycle length, ms.
     * @return the journal time between two steps: a quarter of a cycle, at most {@value #MAX_PERIOD_MILLIS} ms.
     */
    static long periodMillis(final long cycleMillis)
    {
        return Math.max(1, Math.min(cycleMillis / 4, MAX_PERIOD_MILLIS));
    }

    /** Start the thread. */
    void start()
    {
        thread.start();
    }

    private void run()
    {
        long lastStep = Long.MIN_VALUE;
        while (running)
        {
            final long now = JournalClock.current().now();
            if (lastStep == Long.MIN_VALUE || now - lastStep >= periodMillis)
            {
                lastStep = now;
                step(now);
            }
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(POLL_MILLIS));
        }
    }

    private void step(final long now)
    {
        try
        {
            final RetentionReport report = JournalRetention.applyIfFree(journal, keepMillis, archive, now);
            if (report == null)
            {
                LOG.debug("retention of {}: another step holds the journal, tried again in {} ms of journal time", journal.root(), periodMillis);
                return;
            }
            counters.stepped(now, report.removed().size(), report.removedBytes(), report.keptBytes(), report.oldestOffset(),
                report.floor().eventsFloor());
            if (!report.removed().isEmpty() && LOG.isInfoEnabled())
            {
                LOG.info("retention of {}: removed {} cycles, {} bytes; kept {} bytes; oldest events offset {}", journal.root(),
                    report.removed().size(), report.removedBytes(), report.keptBytes(), report.oldestOffset());
            }
            if (!report.heldBack().isEmpty())
            {
                // a stalled holder fills the disk: say so, at most once per roll cycle of journal time
                if (now - lastHeldWarning >= journal.rollCycle().lengthMillis())
                {
                    lastHeldWarning = now;
                    LOG.warn("retention of {}: {}", journal.root(), report.heldBack());
                }
                else
                {
                    LOG.debug("retention of {}: {}", journal.root(), report.heldBack());
                }
            }
        }
        catch (final RuntimeException ex)
        {
            counters.failed();
            LOG.warn("retention of {} failed, tried again in {} ms of journal time", journal.root(), periodMillis, ex);
        }
    }

    /**
     * Stop the thread, waiting for a step in progress to end.
     */
    @Override
    public void close()
    {
        running = false;
        LockSupport.unpark(thread);
        boolean interrupted = false;
        while (thread.isAlive())
        {
            try
            {
                thread.join();
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
}
