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
    long meanCheckpointNanos)
{
    /**
     * @return events this run processed per second of its wall-clock time (a display figure).
     */
    public double eventsPerSecond()
    {
        return elapsedNanos <= 0 ? 0 : eventsThisRun * 1e9 / elapsedNanos;
    }

    /**
     * The summary view of a run's counters, once its stages have stopped.
     *
     * @param run          the run's counters.
     * @param lastOffset   the journal offset of the last slot applied, or of the checkpoint resumed from, or -1.
     * @param elapsedNanos how long the run took.
     * @return the summary.
     */
    static RunSummary of(final RunCounters run, final long lastOffset, final long elapsedNanos)
    {
        return new RunSummary(
            run.events(), run.eventsThisRun(), run.dropped(), run.sideOutput(), run.ignored(), run.windowsFired(), run.windowsOpened(),
            run.duplicates(), run.filtered(), run.valuesWrapped(), run.sumsWrapped(), run.firstOffset(), lastOffset, elapsedNanos, run.resumedAfterOffset(), run.suppressedOutputs(),
            run.checkpoints(), run.maxCheckpointNanos(), run.meanCheckpointNanos());
    }
}
