package dev.weir.engine.fired;

import dev.weir.journal.codec.ResultEncoder;
import dev.weir.journal.codec.ResultFields;
import dev.weir.journal.codec.ResultKind;

/**
 * The fields of one result as the engine fills them: the window aggregator fills one for every
 * result it emits, a replay keeps copies. A listener sees it through a {@link dev.weir.engine.emit.WindowResult},
 * which reads it and has no setters.
 * <p>
 * A reusable flyweight. Not thread-safe: one owner thread.
 */
public final class FiredResult implements ResultFields
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
    private final long[] aggregates = new long[ResultEncoder.MAX_AGGREGATES];
    private int aggregateCount;
    private ResultKind kind = ResultKind.FINAL;

    /**
     * Fill the flyweight with a stored result's fields (e.g. a {@code ResultDecoder}'s).
     *
     * @param result the fields to copy.
     * @return this.
     */
    public FiredResult copy(final ResultFields result)
    {
        window(result.windowStart(), result.windowEnd()).keyId(result.keyId()).count(result.count()).sum(result.sum())
            .min(result.min()).max(result.max()).version(result.version()).sourceOffset(result.sourceOffset()).kind(result.kind());
        final int n = result.aggregateCount();
        if (n == 1)
        {
            return withAggregate(result.aggregate());
        }
        withAggregates(n);
        for (int i = 0; i < n; i++)
        {
            withAggregate(i, result.aggregate(i));
        }
        return this;
    }

    /**
     * @param windowStart inclusive start.
     * @param windowEnd   exclusive end.
     * @return this.
     */
    public FiredResult window(final long windowStart, final long windowEnd)
    {
        this.windowStart = windowStart;
        this.windowEnd = windowEnd;
        return this;
    }

    /**
     * @param rowKind what the row is: {@link ResultKind#FINAL} for a firing.
     * @return this.
     */
    public FiredResult kind(final ResultKind rowKind)
    {
        this.kind = rowKind;
        return this;
    }

    /**
     * @return what the row is: a firing ({@link ResultKind#FINAL}), an update after an event (with
     *         {@code emitUpdates}) or the window's early row (with {@code earlyWhen}); update and early rows carry
     *         the version the window's next firing will carry.
     */
    @Override
    public ResultKind kind()
    {
        return kind;
    }

    /** @param keyId the key id. @return this. */
    public FiredResult keyId(final int keyId)
    {
        this.keyId = keyId;
        return this;
    }

    /** @param count events aggregated. @return this. */
    public FiredResult count(final long count)
    {
        this.count = count;
        return this;
    }

    /** @param sum wrapping sum of values. @return this. */
    public FiredResult sum(final long sum)
    {
        this.sum = sum;
        return this;
    }

    /** @param min least value. @return this. */
    public FiredResult min(final long min)
    {
        this.min = min;
        return this;
    }

    /** @param max greatest value. @return this. */
    public FiredResult max(final long max)
    {
        this.max = max;
        return this;
    }

    /** @param version 0 for the first firing of this window, then 1, 2, .... @return this. */
    public FiredResult version(final int version)
    {
        this.version = version;
        return this;
    }

    /**
     * @param sourceOffset journal offset of the event whose processing produced this firing (at the end of
     *                     input: of the last event of the input; -1 if there was none).
     * @return this.
     */
    public FiredResult sourceOffset(final long sourceOffset)
    {
        this.sourceOffset = sourceOffset;
        return this;
    }

    /**
     * Set the one user aggregation's result: the result then carries one aggregate.
     *
     * @param value the result.
     * @return this.
     */
    public FiredResult withAggregate(final long value)
    {
        this.aggregateCount = 1;
        this.aggregates[0] = value;
        return this;
    }

    /**
     * Say how many user aggregations' results the result carries; set each with
     * {@link #withAggregate(int, long)}.
     *
     * @param count 0 to {@link ResultEncoder#MAX_AGGREGATES}.
     * @return this.
     */
    public FiredResult withAggregates(final int count)
    {
        assert count >= 0 && count <= aggregates.length : "0 to MAX_AGGREGATES aggregates";
        this.aggregateCount = count;
        if (count == 0)
        {
            aggregates[0] = 0;
        }
        return this;
    }

    /**
     * Set one user aggregation's result.
     *
     * @param index 0 .. {@link #aggregateCount()} - 1.
     * @param value the result.
     * @return this.
     */
    public FiredResult withAggregate(final int index, final long value)
    {
        assert index >= 0 && index < aggregateCount : "an index below the aggregate count";
        aggregates[index] = value;
        return this;
    }

    /**
     * @return the result of the pipeline's first user aggregation ({@code PipelineBuilder.aggregate}), or 0
     *         without one; stored with the result in the output journal.
     */
    @Override
    public long aggregate()
    {
        return aggregates[0];
    }

    /**
     * @return how many user aggregations' results this result carries: the pipeline's aggregations.
     */
    @Override
    public int aggregateCount()
    {
        return aggregateCount;
    }

    /**
     * @param index 0 .. {@link #aggregateCount()} - 1, in the order the aggregations were added.
     * @return that aggregation's result, stored with the result in the output journal; 0 for an index at or
     *         past the count (below {@link ResultEncoder#MAX_AGGREGATES}).
     */
    @Override
    public long aggregate(final int index)
    {
        if (index < 0 || index >= aggregates.length)
        {
            throw new IndexOutOfBoundsException("aggregate " + index + " of at most " + aggregates.length);
        }
        return index < aggregateCount ? aggregates[index] : 0;
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
}
