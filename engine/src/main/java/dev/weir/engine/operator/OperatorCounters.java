package dev.weir.engine.operator;

import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

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
    long filtered;

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

    /** @return events the pipeline's filter rejected: they moved the watermark, nothing else. */
    public long filtered()
    {
        return filtered;
    }

    /**
     * Set the count of filtered events (the checkpoint codec, restoring: it is recorded apart from the
     * others, see {@link #writeTo(LongConsumer)}).
     *
     * @param count the count.
     */
    public void filtered(final long count)
    {
        filtered = count;
    }

    /**
     * Give every counter but {@link #filtered()}, in the order a checkpoint records them (the checkpoint codec, writing).
     *
     * @param out receives events, dropped, side output, ignored, windows fired, windows opened, duplicates.
     */
    public void writeTo(final LongConsumer out)
    {
        out.accept(events);
        out.accept(dropped);
        out.accept(sideOutput);
        out.accept(ignored);
        out.accept(windowsFired);
        out.accept(windowsOpened);
        out.accept(duplicates);
    }

    /**
     * Set every counter, in the order {@link #writeTo(LongConsumer)} gives them (the checkpoint codec,
     * restoring).
     *
     * @param in gives the counters in that order.
     */
    public void readFrom(final LongSupplier in)
    {
        events = in.getAsLong();
        dropped = in.getAsLong();
        sideOutput = in.getAsLong();
        ignored = in.getAsLong();
        windowsFired = in.getAsLong();
        windowsOpened = in.getAsLong();
        duplicates = in.getAsLong();
        filtered = 0;
    }
}
