package dev.weir.engine.emit;

import dev.weir.journal.ResultFields;

/**
 * One firing of one (key, window): the row {@code window_start,window_end,key,count,sum,min,max,version}.
 * Its fields ({@link ResultFields}) are what the output journal stores for it ({@code ResultEncoder.copy}),
 * and {@link #copy} fills it back from a stored result.
 * <p>
 * A reusable flyweight: the engine fills the same instance for every result and hands it to
 * {@link ResultListener#onResult(WindowResult)} on the engine thread. It is valid only during that call:
 * copy what you keep. Not thread-safe.
 */
public final class WindowResult implements ResultFields
{
    private long windowStart;
    private long windowEnd;
    private int keyId;
    private long count;
    private long sum;
    private long min;
    private long max;
    private int version;
    private long sourceOffset;
    private long aggregate;

    /**
     * Fill the flyweight with a stored result's fields (e.g. a {@code ResultDecoder}'s).
     *
     * @param result the fields to copy.
     * @return this.
     */
    public WindowResult copy(final ResultFields result)
    {
        return window(result.windowStart(), result.windowEnd()).keyId(result.keyId()).count(result.count()).sum(result.sum())
            .min(result.min()).max(result.max()).version(result.version()).sourceOffset(result.sourceOffset()).withAggregate(result.aggregate());
    }

    /**
     * @param windowStart inclusive start (engine use).
     * @param windowEnd   exclusive end.
     * @return this.
     */
    public WindowResult window(final long windowStart, final long windowEnd)
    {
        this.windowStart = windowStart;
        this.windowEnd = windowEnd;
        return this;
    }

    /** @param keyId the key id (engine use). @return this. */
    public WindowResult keyId(final int keyId)
    {
        this.keyId = keyId;
        return this;
    }

    /** @param count events aggregated (engine use). @return this. */
    public WindowResult count(final long count)
    {
        this.count = count;
        return this;
    }

    /** @param sum wrapping sum of values (engine use). @return this. */
    public WindowResult sum(final long sum)
    {
        this.sum = sum;
        return this;
    }

    /** @param min least value (engine use). @return this. */
    public WindowResult min(final long min)
    {
        this.min = min;
        return this;
    }

    /** @param max greatest value (engine use). @return this. */
    public WindowResult max(final long max)
    {
        this.max = max;
        return this;
    }

    /** @param version 0 for the first firing of this window, then 1, 2, ... (engine use). @return this. */
    public WindowResult version(final int version)
    {
        this.version = version;
        return this;
    }

    /**
     * @param sourceOffset journal offset of the event whose processing produced this firing (at the end of
     *                     input: of the last event of the input; -1 if there was none) (engine use).
     * @return this.
     */
    public WindowResult sourceOffset(final long sourceOffset)
    {
        this.sourceOffset = sourceOffset;
        return this;
    }

    /**
     * Set the user aggregation's result, 0 without one (engine use).
     *
     * @param value the result.
     * @return this.
     */
    public WindowResult withAggregate(final long value)
    {
        this.aggregate = value;
        return this;
    }

    /**
     * @return the result of the pipeline's user aggregation ({@code PipelineBuilder.aggregate}), or 0 without
     *         one; stored with the result in the output journal.
     */
    @Override
    public long aggregate()
    {
        return aggregate;
    }

    /** @return inclusive window start, ms. */
    @Override
    public long windowStart()
    {
        return windowStart;
    }

    /** @return exclusive window end, ms. */
    @Override
    public long windowEnd()
    {
        return windowEnd;
    }

    /** @return the key id (see {@code KeyDictionary}). */
    @Override
    public int keyId()
    {
        return keyId;
    }

    /** @return events aggregated. */
    @Override
    public long count()
    {
        return count;
    }

    /** @return wrapping 64-bit sum of values. */
    @Override
    public long sum()
    {
        return sum;
    }

    /** @return least value. */
    @Override
    public long min()
    {
        return min;
    }

    /** @return greatest value. */
    @Override
    public long max()
    {
        return max;
    }

    /** @return 0 for a window's first firing, then one more for each re-firing. */
    @Override
    public int version()
    {
        return version;
    }

    /** @return journal offset of the event that caused this firing (end of input: the last event's). */
    @Override
    public long sourceOffset()
    {
        return sourceOffset;
    }

    @Override
    public String toString()
    {
        return windowStart + "," + windowEnd + ",#" + keyId + "," + count + "," + sum + "," + min + "," + max + "," + version;
    }
}
