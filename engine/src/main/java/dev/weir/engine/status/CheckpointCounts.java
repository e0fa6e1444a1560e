package dev.weir.engine.status;

import dev.weir.engine.operator.OperatorCounters;

/**
 * The aggregation's counts a checkpoint carries: totals since the journal's start, across restarts. Immutable.
 *
 * @param events        events processed, duplicates included.
 * @param windowsFired  result rows emitted (firings and re-firings).
 * @param dropped       late events dropped.
 * @param sideOutput    late events sent to the late output.
 * @param inNoWindow    events that fell in no window and were not late.
 * @param duplicates    events ignored as duplicates (with dedupe on).
 * @param filtered      events the pipeline's filter rejected: they moved the watermark, nothing else.
 * @param valuesWrapped events whose computed value ({@code --value}) left the 64-bit range, kept wrapped.
 * @param sumsWrapped   additions to a window's sum that left the 64-bit range, kept wrapped.
 * @param unmatched     events a join found no row for, dropped: they moved the watermark, nothing else.
 */
public record CheckpointCounts(
    long events, long windowsFired, long dropped, long sideOutput, long inNoWindow, long duplicates, long filtered, long valuesWrapped,
    long sumsWrapped, long unmatched)
{
    static CheckpointCounts of(final OperatorCounters n)
    {
        return new CheckpointCounts(n.events(), n.windowsFired(), n.dropped(), n.sideOutput(), n.ignored(), n.duplicates(), n.filtered(),
            n.valuesWrapped(), n.sumsWrapped(), n.unmatched());
    }
}
