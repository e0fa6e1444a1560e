package dev.weir.test;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import dev.weir.journal.codec.ResultKind;

/**
 * One result row the driver's pipeline emitted: a window's aggregate for one key, with its kind (a final
 * firing, a re-firing of a late update, an {@code update} or an {@code early} row), version and the offset of
 * the event or heartbeat that fired it. A copy of the engine's result, as a value to assert on.
 * <p>
 * Numbers are longs in the value's unit: for a decimal value column (or a value expression of scale N), the
 * unscaled long, e.g. {@code 1250} for {@code 12.50} at scale 2; {@link #decimalSum()}, {@link #decimalMin()}
 * and {@link #decimalMax()} read them as {@link BigDecimal}s at the value's {@link #scale()}.
 * <p>
 * Immutable and thread-safe; equal when every field is.
 */
public final class TestResult
{
    private final List<String> keyValues;
    private final String key;
    private final long windowStart;
    private final long windowEnd;
    private final ResultKind kind;
    private final long count;
    private final long sum;
    private final long min;
    private final long max;
    private final int version;
    private final long[] aggregates;
    /** Per aggregate, bit i: whether it has a value (a named aggregate over no matching event has none). */
    private final long presence;
    private final long sourceOffset;
    private final int scale;

    TestResult(
        final String key,
        final List<String> keyValues,
        final long windowStart,
        final long windowEnd,
        final ResultKind kind,
        final long count,
        final long sum,
        final long min,
        final long max,
        final int version,
        final long[] aggregates,
        final long presence,
        final long sourceOffset,
        final int scale)
    {
        this.keyValues = List.copyOf(keyValues);
        this.key = key;
        this.windowStart = windowStart;
        this.windowEnd = windowEnd;
        this.kind = Objects.requireNonNull(kind, "kind");
        this.count = count;
        this.sum = sum;
        this.min = min;
        this.max = max;
        this.version = version;
        this.aggregates = aggregates.clone();
        this.presence = presence;
        this.sourceOffset = sourceOffset;
        this.scale = scale;
    }

    /**
     * @return the key as text: the one key column's value, or, for a key of several columns, their values
     *         joined by commas as the CLI's CSV result rows print them (a value holding a comma, quote or line
     *         break quoted as RFC 4180 has it).
     */
    public String key()
    {
        return key;
    }

    /** @return the key's values, one per key column, in key order (a decimal at its scale). */
    public List<String> keyValues()
    {
        return keyValues;
    }

    /** @return the window's start, epoch ms, inclusive. */
    public long windowStart()
    {
        return windowStart;
    }

    /** @return the window's end, epoch ms, exclusive. */
    public long windowEnd()
    {
        return windowEnd;
    }

    /** @return {@link ResultKind#FINAL}, {@link ResultKind#UPDATE} or {@link ResultKind#EARLY}. */
    public ResultKind kind()
    {
        return kind;
    }

    /** @return the events in the window. */
    public long count()
    {
        return count;
    }

    /** @return the sum of their values, in the value's unit (unscaled for a decimal). */
    public long sum()
    {
        return sum;
    }

    /** @return the least value, in the value's unit. */
    public long min()
    {
        return min;
    }

    /** @return the greatest value, in the value's unit. */
    public long max()
    {
        return max;
    }

    /** @return the sum at the value's scale, e.g. {@code 12.50}. */
    public BigDecimal decimalSum()
    {
        return BigDecimal.valueOf(sum, scale);
    }

    /** @return the least value at the value's scale. */
    public BigDecimal decimalMin()
    {
        return BigDecimal.valueOf(min, scale);
    }

    /** @return the greatest value at the value's scale. */
    public BigDecimal decimalMax()
    {
        return BigDecimal.valueOf(max, scale);
    }

    /** @return the fraction digits of the value: a decimal column's scale, 0 for a long. */
    public int scale()
    {
        return scale;
    }

    /** @return the firing's version: 0 for a window's first firing, one more for each re-firing (an early or update row carries the version its next firing will). */
    public int version()
    {
        return version;
    }

    /**
     * @param index a user aggregation's position, in the order the builder added them, or a named aggregate's in its
     *              list ({@code aggregates("total=sum(amount),n=count()")}).
     * @return its value (a named aggregate's unscaled at its scale; 0 when it has none: see {@link #hasAggregate}).
     * @throws IndexOutOfBoundsException if there is no such aggregation.
     */
    public long aggregate(final int index)
    {
        return aggregates[index];
    }

    /**
     * @param index as {@link #aggregate(int)}.
     * @return false if the window has no value for that named aggregate (none of its events matched the aggregate's
     *         filter, or none is in the window: outputs show it empty); true for a user aggregation.
     * @throws IndexOutOfBoundsException if there is no such aggregation.
     */
    public boolean hasAggregate(final int index)
    {
        Objects.checkIndex(index, aggregates.length);
        return (presence & (1L << index)) != 0;
    }

    /** @return every user aggregation's (or named aggregate's) value, in order, 0 for one without a value; empty without any. */
    public List<Long> aggregates()
    {
        return Arrays.stream(aggregates).boxed().toList();
    }

    /** @return the offset of the event or heartbeat whose processing emitted the row (the driver's offsets). */
    public long sourceOffset()
    {
        return sourceOffset;
    }

    @Override
    public boolean equals(final Object other)
    {
        if (!(other instanceof TestResult))
        {
            return false;
        }
        final TestResult r = (TestResult)other;
        return keyValues.equals(r.keyValues) && windowStart == r.windowStart && windowEnd == r.windowEnd && kind == r.kind
            && count == r.count && sum == r.sum && min == r.min && max == r.max && version == r.version
            && Arrays.equals(aggregates, r.aggregates) && presence == r.presence && sourceOffset == r.sourceOffset && scale == r.scale;
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(keyValues, windowStart, windowEnd, kind, count, sum, min, max, version, Arrays.hashCode(aggregates), presence,
            sourceOffset, scale);
    }

    /**
     * @return e.g. {@code FINAL c1 [0, 60000) count=2 sum=12.50 min=2.50 max=10.00 v0 @3}: the kind, key, window,
     *         aggregate (at the value's scale), version and source offset, and the user aggregations if any.
     */
    @Override
    public String toString()
    {
        return kind + " " + key + " [" + windowStart + ", " + windowEnd + ") count=" + count + " sum=" + decimalSum().toPlainString()
            + " min=" + decimalMin().toPlainString() + " max=" + decimalMax().toPlainString() + " v" + version + " @" + sourceOffset
            + (aggregates.length == 0 ? "" : " aggregates=" + aggregatesText());
    }

    /** @return the aggregates as {@code [3, null, 7]}: null for one without a value. */
    private String aggregatesText()
    {
        final StringBuilder text = new StringBuilder("[");
        for (int i = 0; i < aggregates.length; i++)
        {
            text.append(i == 0 ? "" : ", ").append(hasAggregate(i) ? Long.toString(aggregates[i]) : "null");
        }
        return text.append(']').toString();
    }
}
