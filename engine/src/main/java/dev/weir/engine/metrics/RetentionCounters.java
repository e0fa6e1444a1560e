package dev.weir.engine.metrics;

import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

/**
 * The counters of a following run's automatic retention in its {@link MetricsFile}, after the engine's
 * ({@link EngineCounters}): what {@code weir stat} shows of it. Allocated only by runs with retention, so a
 * file without them is a run without retention (and files of before retention read as before). Each counter
 * has its own type id ({@link CounterTypes#RETENTION_STEPS} and on).
 * <p>
 * Not thread-safe: the retention thread is the only writer (release stores); other threads and processes read.
 */
public final class RetentionCounters
{
    /** The number of counters. */
    public static final int COUNT = 8;

    /** The label of the counter of the journal clock's time of the last step. */
    public static final String LAST_STEP = "retention: journal clock of the last step (epoch ms)";

    private final AtomicCounter steps;
    private final AtomicCounter failures;
    private final AtomicCounter cyclesRemoved;
    private final AtomicCounter bytesRemoved;
    private final AtomicCounter bytesKept;
    private final AtomicCounter oldestOffset;
    private final AtomicCounter eventsFloor;
    private final AtomicCounter lastStep;

    /**
     * @param counters where to allocate the counters (at start-up: this allocates).
     */
    public RetentionCounters(final CountersManager counters)
    {
        steps = counters.newCounter("retention steps", CounterTypes.RETENTION_STEPS);
        failures = counters.newCounter("retention steps failed", CounterTypes.RETENTION_FAILURES);
        cyclesRemoved = counters.newCounter("retention: cycle files removed", CounterTypes.RETENTION_CYCLES_REMOVED);
        bytesRemoved = counters.newCounter("retention: bytes removed", CounterTypes.RETENTION_BYTES_REMOVED);
        bytesKept = counters.newCounter("retention: bytes of cycle files kept", CounterTypes.RETENTION_BYTES_KEPT);
        oldestOffset = counters.newCounter("retention: oldest events offset held", CounterTypes.RETENTION_OLDEST_OFFSET);
        eventsFloor = counters.newCounter("retention: events floor (first offset a holder needs)", CounterTypes.RETENTION_EVENTS_FLOOR);
        lastStep = counters.newCounter(LAST_STEP, CounterTypes.RETENTION_LAST_STEP);
        oldestOffset.setRelease(-1);
        eventsFloor.setRelease(Long.MAX_VALUE);
    }

    /**
     * A step completed (the retention thread).
     *
     * @param nowMillis     the journal clock's time the step took as now.
     * @param cycles        cycle files it removed.
     * @param bytes         their bytes.
     * @param kept          bytes of cycle files the journal holds after it.
     * @param oldest        the oldest events offset held after it, or -1.
     * @param floor         the events floor it respected.
     */
    public void stepped(final long nowMillis, final int cycles, final long bytes, final long kept, final long oldest, final long floor)
    {
        cyclesRemoved.setRelease(cyclesRemoved.get() + cycles);
        bytesRemoved.setRelease(bytesRemoved.get() + bytes);
        bytesKept.setRelease(kept);
        oldestOffset.setRelease(oldest);
        eventsFloor.setRelease(floor);
        lastStep.setRelease(nowMillis);
        steps.setRelease(steps.get() + 1);
    }

    /**
     * A step failed (the retention thread).
     */
    public void failed()
    {
        failures.setRelease(failures.get() + 1);
    }
}
