package dev.weir.engine;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;

import dev.weir.engine.agent.WakeableIdleStrategy;
import dev.weir.engine.metrics.RetentionCounters;
import dev.weir.engine.retention.JournalRetention;
import dev.weir.engine.retention.RetentionReport;
import dev.weir.engine.source.RunFailure;
import dev.weir.journal.JournalClock;
import dev.weir.journal.JournalDirectory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The automatic retention of a following run ({@link PipelineBuilder#retention}): an Agrona {@link Agent} on a
 * thread of the run's own ({@code <prefix>-retention}, {@link PipelineThreads#startAgent}) that reads the
 * journal clock every {@value #POLL_MILLIS} ms of wall time and, once {@link #periodMillis(long)} of journal
 * time has passed since its last step (at once when it starts), takes one step ({@link JournalRetention#applyIfFree}: skipped while another process's step holds
 * the journal). Each step reads the retention floor from disk: this run's newest durable checkpoint holds it,
 * never its reader's position in memory, so a crash still resumes from a checkpoint whose cycles are there.
 * <p>
 * A step that fails is logged at WARN (SLF4J, logger {@code dev.weir.engine.FollowingRetention}), counted, and
 * tried again at the next period; it never fails the run (a throwable that is no exception goes to the run's
 * failure, as on every pipeline thread). Steps that remove cycles are logged at INFO.
 * Nothing runs on the threads that process events.
 * <p>
 * {@link #start()} and {@link #close()} are for the thread that owns the run; the counters have the retention
 * thread as their one writer.
 */
final class FollowingRetention implements Agent, AutoCloseable
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
    private final PipelineThreads threads;
    private final RunFailure completion;
    private final WakeableIdleStrategy idle = new WakeableIdleStrategy(TimeUnit.MILLISECONDS.toNanos(POLL_MILLIS));
    private AgentRunner runner;
    /** Journal time of the last held-back warning; the retention thread's only. */
    private long lastHeldWarning = Long.MIN_VALUE / 2;
    /** Journal time of the last step, or {@code Long.MIN_VALUE} before the first; the retention thread's only. */
    private long lastStep = Long.MIN_VALUE;

    /**
     * @param journal    the journal (the run's view of it: every pipeline's floor is read).
     * @param keepMillis how long a cycle is kept after it ends, ms.
     * @param archive    where removed cycles go, or null to delete them.
     * @param counters   where steps are counted.
     * @param threads    the run's threads, which make the retention thread.
     * @param completion the run's failure, told of a throwable a step lets escape.
     */
    FollowingRetention(final JournalDirectory journal, final long keepMillis, final Path archive, final RetentionCounters counters,
        final PipelineThreads threads, final RunFailure completion)
    {
        this.journal = journal;
        this.keepMillis = keepMillis;
        this.archive = archive;
        this.periodMillis = periodMillis(journal.rollCycle().lengthMillis());
        this.counters = counters;
        this.threads = threads;
        this.completion = completion;
    }

    /**
     * @param cycleMillis the journal's roll cycle length, ms.
     * @return the journal time between two steps: a quarter of a cycle, at most {@value #MAX_PERIOD_MILLIS} ms.
     */
    static long periodMillis(final long cycleMillis)
    {
        return Math.max(1, Math.min(cycleMillis / 4, MAX_PERIOD_MILLIS));
    }

    /** Start the retention's thread. */
    void start()
    {
        runner = threads.startAgent(roleName(), this, idle, completion::fail);
    }

    /**
     * One duty cycle: a step if a period of journal time has passed since the last one (at once the first
     * time).
     *
     * @return 0, so the runner parks {@value #POLL_MILLIS} ms after every cycle, a step or not.
     */
    @Override
    public int doWork()
    {
        final long now = JournalClock.current().now();
        if (lastStep == Long.MIN_VALUE || now - lastStep >= periodMillis)
        {
            lastStep = now;
            step(now);
        }
        return 0;
    }

    @Override
    public String roleName()
    {
        return "retention";
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
     * Stop the retention's thread, waiting for a step in progress to end.
     */
    @Override
    public void close()
    {
        idle.close(runner);
    }
}
