package dev.weir.engine.metrics;

import org.HdrHistogram.Histogram;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

/**
 * The engine's live counters in a {@link MetricsFile}: what {@code weir stat} shows. The engine's last
 * stage publishes them once per batch of events taken from the ring ({@link #publish}), with release
 * stores, so the hot path pays a few stores per batch, not per event; the journal reader's thread
 * publishes {@link #rejectedLines()}, {@link #lastEventRead()} and {@link #lastHeartbeatRead()} once per poll;
 * the run's {@link LatencySampler} publishes the latency histograms ({@link #publish(LatencyHistogram, Histogram)}),
 * about once a second. Each counter has its own type id ({@link CounterTypes}).
 * <p>
 * Not thread-safe: each counter has one writing thread; other threads and processes read the file.
 */
public final class EngineCounters
{
    /** The label of the counter holding the journal offset the pipeline has applied. */
    public static final String OFFSET_APPLIED = "journal offset applied";

    /** The label of the counter holding the wall clock when the pipeline last read an event. */
    public static final String LAST_EVENT_READ = "wall clock of the last event read (epoch ms)";
    /** The label of the counter holding the wall clock when the pipeline last read a heartbeat. */
    public static final String LAST_HEARTBEAT_READ = "wall clock of the last heartbeat read (epoch ms)";

    /** The number of counters. */
    public static final int COUNT = 19 + 2 * CounterTypes.MAX;

    private final AtomicCounter events;
    private final AtomicCounter dropped;
    private final AtomicCounter sideOutput;
    private final AtomicCounter ignored;
    private final AtomicCounter duplicates;
    private final AtomicCounter filtered;
    private final AtomicCounter unmatched;
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
    private final AtomicCounter valuesWrapped;
    private final AtomicCounter sumsWrapped;
    private final AtomicCounter[] readToApplied;
    private final AtomicCounter[] fireToListener;

    /**
     * @param counters where to allocate the counters (at start-up: this allocates).
     */
    public EngineCounters(final CountersManager counters)
    {
        events = counters.newCounter("events applied", CounterTypes.EVENTS_APPLIED);
        dropped = counters.newCounter("late events dropped", CounterTypes.LATE_DROPPED);
        sideOutput = counters.newCounter("late events to the side output", CounterTypes.LATE_SIDE_OUTPUT);
        ignored = counters.newCounter("events in no window", CounterTypes.EVENTS_IN_NO_WINDOW);
        duplicates = counters.newCounter("duplicate events ignored", CounterTypes.DUPLICATES);
        filtered = counters.newCounter("events filtered out", CounterTypes.FILTERED);
        unmatched = counters.newCounter("events unmatched by a join", CounterTypes.UNMATCHED);
        windowsOpen = counters.newCounter("windows open", CounterTypes.WINDOWS_OPEN);
        windowsFired = counters.newCounter("windows fired", CounterTypes.WINDOWS_FIRED);
        watermark = counters.newCounter("watermark (epoch ms)", CounterTypes.WATERMARK);
        offset = counters.newCounter(OFFSET_APPLIED, CounterTypes.OFFSET_APPLIED);
        checkpointOffset = counters.newCounter("journal offset of the last checkpoint", CounterTypes.CHECKPOINT_OFFSET);
        checkpoints = counters.newCounter("checkpoints taken", CounterTypes.CHECKPOINTS);
        outputs = counters.newCounter("outputs written (results and late events)", CounterTypes.OUTPUTS);
        rejectedLines = counters.newCounter("rejected input lines read (this run)", CounterTypes.REJECTED_LINES);
        lastEventRead = counters.newCounter(LAST_EVENT_READ, CounterTypes.LAST_EVENT_READ);
        lastHeartbeatRead = counters.newCounter(LAST_HEARTBEAT_READ, CounterTypes.LAST_HEARTBEAT_READ);
        valuesWrapped = counters.newCounter("values wrapped (--value arithmetic past the 64-bit range)", CounterTypes.VALUES_WRAPPED);
        sumsWrapped = counters.newCounter("sums wrapped (a window's sum past the 64-bit range)", CounterTypes.SUMS_WRAPPED);
        readToApplied = histogram(counters, CounterTypes.READ_TO_APPLIED);
        fireToListener = histogram(counters, CounterTypes.FIRE_TO_LISTENER);
    }

    private static AtomicCounter[] histogram(final CountersManager counters, final int base)
    {
        final AtomicCounter[] fields = new AtomicCounter[CounterTypes.MAX];
        for (int i = 0; i < fields.length; i++)
        {
            final String field = CounterTypes.HISTOGRAM_FIELDS[i];
            fields[i] = counters.newCounter(CounterTypes.histogramName(base) + " latency " + field + (i == 0 ? "" : " (ns)"), base + 1 + i);
        }
        return fields;
    }

    /**
     * Publish a latency histogram's count, percentiles and max (the run's sampler thread, about once a second).
     *
     * @param latency the histogram.
     * @param total   its total so far ({@link LatencyHistogram#sample()}).
     */
    public void publish(final LatencyHistogram latency, final Histogram total)
    {
        final AtomicCounter[] fields = latency.typeId() == CounterTypes.READ_TO_APPLIED ? readToApplied : fireToListener;
        final long count = total.getTotalCount();
        fields[0].setRelease(count);
        for (int i = 0; i < CounterTypes.PERCENTILES.length; i++)
        {
            fields[1 + i].setRelease(count == 0 ? 0 : total.getValueAtPercentile(CounterTypes.PERCENTILES[i]));
        }
        fields[CounterTypes.MAX - 1].setRelease(total.getMaxValue());
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
        unmatched.setRelease(run.unmatched());
        windowsOpen.setRelease(run.windowsOpen());
        windowsFired.setRelease(run.windowsFired());
        watermark.setRelease(run.watermark());
        offset.setRelease(run.offset());
        checkpointOffset.setRelease(run.checkpointOffset());
        checkpoints.setRelease(run.checkpoints());
        outputs.setRelease(run.outputs());
        valuesWrapped.setRelease(run.valuesWrapped());
        sumsWrapped.setRelease(run.sumsWrapped());
    }
}
