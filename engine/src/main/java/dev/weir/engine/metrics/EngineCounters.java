package dev.weir.engine.metrics;

import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

/**
 * The engine's live counters in a {@link MetricsFile}: what {@code weir stat} shows. The engine's last
 * stage publishes them once per batch of events taken from the ring ({@link #publish}), with release
 * stores, so the hot path pays a few stores per batch, not per event; the journal reader's thread
 * publishes {@link #rejectedLines()}, {@link #lastEventRead()} and {@link #lastHeartbeatRead()} once per poll.
 * <p>
 * Not thread-safe: each counter has one writing thread; other threads and processes read the file.
 */
public final class EngineCounters
{
    /** The label of the counter holding the journal offset the pipeline has applied. */
    public static final String OFFSET_APPLIED = "journal offset applied";

    /** The counter type id of every Weir engine counter. */
    public static final int TYPE_ID = 1_0001;
    /** The label of the counter holding the wall clock when the pipeline last read an event. */
    public static final String LAST_EVENT_READ = "wall clock of the last event read (epoch ms)";
    /** The label of the counter holding the wall clock when the pipeline last read a heartbeat. */
    public static final String LAST_HEARTBEAT_READ = "wall clock of the last heartbeat read (epoch ms)";

    /** The number of counters. */
    public static final int COUNT = 16;

    private final AtomicCounter events;
    private final AtomicCounter dropped;
    private final AtomicCounter sideOutput;
    private final AtomicCounter ignored;
    private final AtomicCounter duplicates;
    private final AtomicCounter filtered;
    private final AtomicCounter windowsOpen;
    private final AtomicCounter windowsFired;
    private final AtomicCounter watermark;
    private final AtomicCounter offset;
    private final AtomicCounter checkpointOffset;
    private final AtomicCounter checkpoints;
    private final AtomicCounter outputs;
    private final AtomicCounter rejectedLines;
    private final AtomicCounter lastEventRead;
    private final AtomicCounter lastHeartbeatRead;

    /**
     * @param counters where to allocate the counters (at start-up: this allocates).
     */
    public EngineCounters(final CountersManager counters)
    {
        events = counters.newCounter("events applied", TYPE_ID);
        dropped = counters.newCounter("late events dropped", TYPE_ID);
        sideOutput = counters.newCounter("late events to the side output", TYPE_ID);
        ignored = counters.newCounter("events in no window", TYPE_ID);
        duplicates = counters.newCounter("duplicate events ignored", TYPE_ID);
        filtered = counters.newCounter("events filtered out", TYPE_ID);
        windowsOpen = counters.newCounter("windows open", TYPE_ID);
        windowsFired = counters.newCounter("windows fired", TYPE_ID);
        watermark = counters.newCounter("watermark (epoch ms)", TYPE_ID);
        offset = counters.newCounter(OFFSET_APPLIED, TYPE_ID);
        checkpointOffset = counters.newCounter("journal offset of the last checkpoint", TYPE_ID);
        checkpoints = counters.newCounter("checkpoints taken", TYPE_ID);
        outputs = counters.newCounter("outputs written (results and late events)", TYPE_ID);
        rejectedLines = counters.newCounter("rejected input lines read (this run)", TYPE_ID);
        lastEventRead = counters.newCounter(LAST_EVENT_READ, TYPE_ID);
        lastHeartbeatRead = counters.newCounter(LAST_HEARTBEAT_READ, TYPE_ID);
    }

    /**
     * @return the counter of rejected-line records the journal reader passed over, written by the thread
     *         that reads the journal (its only writer), not by {@link #publish(RunCounters)}.
     */
    public AtomicCounter rejectedLines()
    {
        return rejectedLines;
    }

    /**
     * @return the counter of the wall clock (epoch ms) of the last poll of the journal that read an event (0
     *         before any), written by the thread that reads the journal: for {@code weir stat}'s time since the last event.
     */
    public AtomicCounter lastEventRead()
    {
        return lastEventRead;
    }

    /**
     * @return the counter of the wall clock (epoch ms) of the last poll of the journal that read a heartbeat (0
     *         before any), written by the thread that reads the journal.
     */
    public AtomicCounter lastHeartbeatRead()
    {
        return lastHeartbeatRead;
    }

    /**
     * Publish the run's counters to the metrics file (the last stage's thread, after a batch).
     *
     * @param run the run's counters.
     */
    public void publish(final RunCounters run)
    {
        events.setRelease(run.events());
        dropped.setRelease(run.dropped());
        sideOutput.setRelease(run.sideOutput());
        ignored.setRelease(run.ignored());
        duplicates.setRelease(run.duplicates());
        filtered.setRelease(run.filtered());
        windowsOpen.setRelease(run.windowsOpen());
        windowsFired.setRelease(run.windowsFired());
        watermark.setRelease(run.watermark());
        offset.setRelease(run.offset());
        checkpointOffset.setRelease(run.checkpointOffset());
        checkpoints.setRelease(run.checkpoints());
        outputs.setRelease(run.outputs());
    }
}
