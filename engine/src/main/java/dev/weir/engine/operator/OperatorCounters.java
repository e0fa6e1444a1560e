package dev.weir.engine.operator;

import dev.weir.engine.checkpoint.StateBuffer;

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

    void write(final StateBuffer out)
    {
        out.putLong(events).putLong(dropped).putLong(sideOutput).putLong(ignored).putLong(windowsFired).putLong(windowsOpened)
            .putLong(duplicates);
    }

    void read(final StateBuffer in)
    {
        events = in.getLong();
        dropped = in.getLong();
        sideOutput = in.getLong();
        ignored = in.getLong();
        windowsFired = in.getLong();
        windowsOpened = in.getLong();
        duplicates = in.getLong();
    }
}
