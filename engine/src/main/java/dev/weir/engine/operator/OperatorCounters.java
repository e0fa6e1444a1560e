package dev.weir.engine.operator;

/**
 * What the aggregation stage did, counted by its owner thread. Read them from another thread only after
 * the run has completed (the pipeline's completion orders the reads), or through the published metrics.
 */
public final class OperatorCounters
{
    long events;
    long dropped;
    long sideOutput;
    long ignored;
    long windowsFired;
    long windowsOpened;
    long duplicates;

    /** @return events processed (not counting the end-of-input marker), duplicates included. */
    public long events()
    {
        return events;
    }

    /** @return late events dropped under the {@code drop} policy. */
    public long dropped()
    {
        return dropped;
    }

    /** @return late events written to the side output under the {@code side} policy. */
    public long sideOutput()
    {
        return sideOutput;
    }

    /** @return events that lay in no window and were not late (sliding windows with slide &gt; size). */
    public long ignored()
    {
        return ignored;
    }

    /** @return result rows emitted (firings and re-firings). */
    public long windowsFired()
    {
        return windowsFired;
    }

    /** @return (key, window) states created. */
    public long windowsOpened()
    {
        return windowsOpened;
    }

    /** @return events ignored because their event id was already seen (with dedupe on). */
    public long duplicates()
    {
        return duplicates;
    }

    /**
     * Set every counter, as a checkpoint recorded them (the checkpoint codec, restoring).
     *
     * @param events        {@link #events()}.
     * @param dropped       {@link #dropped()}.
     * @param sideOutput    {@link #sideOutput()}.
     * @param ignored       {@link #ignored()}.
     * @param windowsFired  {@link #windowsFired()}.
     * @param windowsOpened {@link #windowsOpened()}.
     * @param duplicates    {@link #duplicates()}.
     */
    public void restore(
        final long events,
        final long dropped,
        final long sideOutput,
        final long ignored,
        final long windowsFired,
        final long windowsOpened,
        final long duplicates)
    {
        this.events = events;
        this.dropped = dropped;
        this.sideOutput = sideOutput;
        this.ignored = ignored;
        this.windowsFired = windowsFired;
        this.windowsOpened = windowsOpened;
        this.duplicates = duplicates;
    }
}
