package dev.weir.engine;

import dev.weir.engine.metrics.RunCounters;

/**
 * What one run did: counts (cumulative over the journal's whole processing when the run resumed from a
 * checkpoint), the offsets it covered, recovery and checkpoint figures, and how long it took.
 *
 * @param events              events processed, duplicates included (since the journal's first event).
 * @param eventsThisRun       events processed by this run (after the checkpoint it resumed from).
 * @param dropped             late events dropped (policy {@code drop}).
 * @param sideOutput          late events written to the side output (policy {@code side}).
 * @param ignored             events in no window that were not late.
 * @param windowsFired        result rows emitted (firings and re-firings).
 * @param windowsOpened       (key, window) states created.
 * @param duplicates          events ignored as duplicates (dedupe on).
 * @param filtered            events the pipeline's filter rejected: they moved the watermark, nothing else
 *                            (not counted in {@code events}).
 * @param valuesWrapped       events whose computed value wrapped: a step of the value expression's arithmetic
 *                            left the 64-bit range; the event kept the wrapped value (counted in {@code events}).
 * @param sumsWrapped         additions to a window's sum that wrapped (an event's value, or a merged session).
 * @param firstOffset         offset where this run started reading (or resumed after), or -1.
 * @param lastOffset          offset of the last event this run processed, or -1.
 * @param elapsedNanos        wall-clock duration of this run (for display only; never part of any output).
 * @param resumedAfterOffset  the offset the restored checkpoint covered, or -1 if the run started fresh.
 * @param suppressedOutputs   outputs reproduced during recovery and not written again.
 * @param checkpoints         checkpoints taken by this run.
 * @param maxCheckpointNanos  the longest pause a checkpoint caused.
 * @param meanCheckpointNanos the mean checkpoint pause.
 * @param lateThisRun         late events (dropped or sent to the side output) among this run's events.
 * @param onTimeOutOfOrderness the smallest readable out-of-orderness, ms, under which 99% of this run's events
 *                            would not have been late ({@link dev.weir.engine.time.EventDelays}), or -1 without events.
 * @param busyNanos           how long the run had events to process: the union, over the last stage's batches, of
 *                            the time from the publisher's read of a batch's first slot to the batch's having been
 *                            applied (a follower's idle waits left out; for display only).
 * @param unmatched           events a join found no row for ({@code --join-missing drop}): they moved the watermark,
 *                            nothing else (not counted in {@code events} nor in {@code filtered}).
 */
public record RunSummary(
    long events,
    long eventsThisRun,
    long dropped,
    long sideOutput,
    long ignored,
    long windowsFired,
    long windowsOpened,
    long duplicates,
    long filtered,
    long valuesWrapped,
    long sumsWrapped,
    long firstOffset,
    long lastOffset,
    long elapsedNanos,
    long resumedAfterOffset,
    long suppressedOutputs,
    long checkpoints,
    long maxCheckpointNanos,
    long meanCheckpointNanos,
    long lateThisRun,
    long onTimeOutOfOrderness,
    long busyNanos,
    long unmatched)
{
    /** The share of a run's events, in percent, past which its late events are many ({@link #manyLate()}). */
    public static final int MANY_LATE_PERCENT = 1;
    /** The share of events, in percent, {@link #onTimeOutOfOrderness()} keeps on time. */
    public static final int ON_TIME_PERCENT = 99;

    /**
     * @return events this run processed per second of its wall-clock time (a display figure).
     */
    public double eventsPerSecond()
    {
        return elapsedNanos <= 0 ? 0 : eventsThisRun * 1e9 / elapsedNanos;
    }

    /**
     * @return events this run processed per second of its busy time ({@link #busyNanos()}), the figure for a run
     *         that follows a journal and waits for events (a display figure).
     */
    public double eventsPerBusySecond()
    {
        return busyNanos <= 0 ? 0 : eventsThisRun * 1e9 / busyNanos;
    }

    /**
     * @return true if more than {@link #MANY_LATE_PERCENT}% of this run's events were late.
     */
    public boolean manyLate()
    {
        return lateThisRun * 100 > eventsThisRun * MANY_LATE_PERCENT;
    }

    /**
     * The summary view of a run's counters, once its stages have stopped.
     *
     * @param run          the run's counters.
     * @param lastOffset   the journal offset of the last slot applied, or of the checkpoint resumed from, or -1.
     * @param elapsedNanos how long the run took.
     * @param busyNanos    how long it had events to process.
     * @return the summary.
     */
    static RunSummary of(final RunCounters run, final long lastOffset, final long elapsedNanos, final long busyNanos)
    {
        return new RunSummary(
            run.events(), run.eventsThisRun(), run.dropped(), run.sideOutput(), run.ignored(), run.windowsFired(), run.windowsOpened(),
            run.duplicates(), run.filtered(), run.valuesWrapped(), run.sumsWrapped(), run.firstOffset(), lastOffset, elapsedNanos, run.resumedAfterOffset(), run.suppressedOutputs(),
            run.checkpoints(), run.maxCheckpointNanos(), run.meanCheckpointNanos(), run.lateThisRun(), run.outOfOrdernessKeeping(ON_TIME_PERCENT),
            busyNanos, run.unmatched());
    }
}
