package dev.weir.engine.metrics;

/**
 * The latency histograms of one run, in nanoseconds:
 * <ul>
 *   <li>{@link #readToApplied()}: from the publisher reading a batch of events from the journal (one
 *       {@code System.nanoTime()} per poll, stamped into the poll's slots) to the last stage having applied
 *       the last slot of a ring batch (one {@code nanoTime()} at the batch's end); one record per ring batch.
 *       The time an event was appended is not in the journal, so append-to-read is not measured: this is
 *       the engine's own latency, queueing in the ring included.</li>
 *   <li>{@link #fireToListener()}: from just before the first window fired while applying one slot (an
 *       event, heartbeat or filtered event whose watermark advance fires windows, a late event that
 *       re-fires one, or the end of input) to the result listener having returned for the last window fired
 *       by that slot; one record per such firing pass, not per result. Update and early rows are not
 *       timed.</li>
 * </ul>
 * Thread-safety: as {@link LatencyHistogram}: the last stage's thread records both.
 */
public final class RunLatencies
{
    private final LatencyHistogram readToApplied = new LatencyHistogram(CounterTypes.READ_TO_APPLIED);
    private final LatencyHistogram fireToListener = new LatencyHistogram(CounterTypes.FIRE_TO_LISTENER);

    /** @return the read-to-applied histogram, recorded by the last stage once per ring batch. */
    public LatencyHistogram readToApplied()
    {
        return readToApplied;
    }

    /** @return the fire-to-listener histogram, recorded by the window operator once per firing pass. */
    public LatencyHistogram fireToListener()
    {
        return fireToListener;
    }

    /**
     * Take both histograms' new records into their totals and publish them (the sampling thread).
     *
     * @param counters where to publish.
     */
    public void sampleInto(final EngineCounters counters)
    {
        counters.publish(readToApplied, readToApplied.sample());
        counters.publish(fireToListener, fireToListener.sample());
    }
}
