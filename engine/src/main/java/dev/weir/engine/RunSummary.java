package dev.weir.engine;

/**
 * What one bounded run did: counts, the offsets it covered, and how long it took.
 *
 * @param events        events processed.
 * @param dropped       late events dropped (policy {@code drop}).
 * @param sideOutput    late events written to the side output (policy {@code side}).
 * @param ignored       events in no window that were not late.
 * @param windowsFired  result rows emitted (firings and re-firings).
 * @param windowsOpened (key, window) states created.
 * @param firstOffset   journal offset where the run started reading, or -1 if the journal was empty.
 * @param lastOffset    journal offset of the last event processed, or -1.
 * @param elapsedNanos  wall-clock duration of the run (for display only; never part of any output).
 */
public record RunSummary(
    long events,
    long dropped,
    long sideOutput,
    long ignored,
    long windowsFired,
    long windowsOpened,
    long firstOffset,
    long lastOffset,
    long elapsedNanos)
{
    /**
     * @return events per second over the run.
     */
    public double eventsPerSecond()
    {
        return elapsedNanos <= 0 ? 0 : events * 1e9 / elapsedNanos;
    }
}
