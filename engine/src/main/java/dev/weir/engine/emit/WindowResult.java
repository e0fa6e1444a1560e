package dev.weir.engine.emit;

/**
 * One firing of one (key, window): the row {@code window_start,window_end,key,count,sum,min,max,version}.
 * <p>
 * A reusable flyweight: the engine fills the same instance for every result and hands it to
 * {@link ResultListener#onResult(WindowResult)} on the engine thread. It is valid only during that call:
 * copy what you keep. Not thread-safe.
 */
public final class WindowResult
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
     * Fill the flyweight (engine use).
     *
     * @param windowStart  inclusive start.
     * @param windowEnd    exclusive end.
     * @param keyId        key id.
     * @param count        events aggregated.
     * @param sum          wrapping sum of values.
     * @param min          least value.
     * @param max          greatest value.
     * @param version      0 for the first firing of this window, then 1, 2, ...
     * @param sourceOffset journal offset of the event whose processing produced this firing (at the end
     *                     of input: of the last event of the input; -1 if there was none).
     * @return this.
     */
    public WindowResult set(
        final long windowStart,
        final long windowEnd,
        final int keyId,
        final long count,
        final long sum,
        final long min,
        final long max,
        final int version,
        final long sourceOffset)
    {
        this.windowStart = windowStart;
        this.windowEnd = windowEnd;
        this.keyId = keyId;
        this.count = count;
        this.sum = sum;
        this.min = min;
        this.max = max;
        this.version = version;
        this.sourceOffset = sourceOffset;
        this.aggregate = 0;
        return this;
    }

    /**
     * Set the user aggregation's result (engine use, after {@code set}).
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
    public long aggregate()
    {
        return aggregate;
    }

    /** @return inclusive window start, ms. */
    public long windowStart()
    {
        return windowStart;
    }

    /** @return exclusive window end, ms. */
    public long windowEnd()
    {
        return windowEnd;
    }

    /** @return the key id (see {@code KeyDictionary}). */
    public int keyId()
    {
        return keyId;
    }

    /** @return events aggregated. */
    public long count()
    {
        return count;
    }

    /** @return wrapping 64-bit sum of values. */
    public long sum()
    {
        return sum;
    }

    /** @return least value. */
    public long min()
    {
        return min;
    }

    /** @return greatest value. */
    public long max()
    {
        return max;
    }

    /** @return 0 for a window's first firing, then one more for each re-firing. */
    public int version()
    {
        return version;
    }

    /** @return journal offset of the event that caused this firing (end of input: the last event's). */
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
