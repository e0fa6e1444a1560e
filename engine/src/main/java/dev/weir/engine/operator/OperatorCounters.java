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
    long unmatched;
    long valuesWrapped;
    long sumsWrapped;

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
     * @return events dropped because a join found no row of their key (with {@code --join-missing drop}): they
     *         moved the watermark, nothing else. Not counted among {@link #filtered()}.
     */
    public long unmatched()
    {
        return unmatched;
    }

    /**
     * Set the count of unmatched events (the checkpoint codec, restoring: it is recorded apart from the others).
     *
     * @param count the count.
     */
    public void unmatched(final long count)
    {
        unmatched = count;
    }

    /**
     * @return events whose computed value wrapped: a step of the value expression's arithmetic left the 64-bit
     *         range ({@link dev.weir.engine.expr.EventValue#wrapped()}); the event kept the wrapped value.
     *         Counted among {@link #events()}, duplicates included.
     */
    public long valuesWrapped()
    {
        return valuesWrapped;
    }

    /**
     * @return additions to a window's sum that wrapped (left the 64-bit range): an event's value added to one of
     *         its windows, or a session merged into another. The sum kept the wrapped value.
     */
    public long sumsWrapped()
    {
        return sumsWrapped;
    }

    /**
     * Set the counts of wrapped values and sums (the checkpoint codec, restoring: they are recorded apart from
     * the others, see {@link #writeTo(LongConsumer)}).
     *
     * @param values the count of {@link #valuesWrapped()}.
     * @param sums   the count of {@link #sumsWrapped()}.
     */
    public void wrapped(final long values, final long sums)
    {
        valuesWrapped = values;
        sumsWrapped = sums;
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
     * Give every counter but {@link #filtered()} and the wrapped counts, in the order a checkpoint records them (the checkpoint codec, writing).
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
        unmatched = 0;
        valuesWrapped = 0;
        sumsWrapped = 0;
    }
}
