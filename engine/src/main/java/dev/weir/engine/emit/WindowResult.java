package dev.weir.engine.emit;

import java.math.BigDecimal;

import dev.weir.journal.codec.ResultEncoder;
import dev.weir.journal.codec.ResultFields;
import dev.weir.journal.codec.ResultKind;

/**
 * One row of one (key, window), of a {@link #kind()}: a firing ({@link ResultKind#FINAL}), an update or the
 * early row; the row {@code window_start,window_end,key,count,sum,min,max,version},
 * and the values of the pipeline's user aggregations ({@link #aggregate(int)}, {@link #aggregateCount()}).
 * Its fields ({@link ResultFields}) are what the output journal stores for it ({@code ResultEncoder.copy}),
 * and {@link #copy} fills it back from a stored result.
 * <p>
 * The key and the numbers in the user's terms: {@link #key()} is the key's text (its columns joined as a CSV
 * result row joins them), {@link #keyColumn(int)} and {@link #keyColumn(String)} one key column's value;
 * {@link #scale()} is the value's scale (a decimal column's, 0 for a long), {@link #appendSum(StringBuilder)}
 * and {@link #sumText()} write the sum at that scale ({@code 12.50}) without allocating, and
 * {@link #decimalSum()}, {@link #decimalMin()} and {@link #decimalMax()} return {@link BigDecimal}s (allocating:
 * off the hot path). The engine's results carry the pipeline's key text; the key text of a key already seen
 * allocates nothing (the first result of a pipeline reads the journal's dictionaries, a new key its definition).
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
    private final long[] aggregates = new long[ResultEncoder.MAX_AGGREGATES];
    private int aggregateCount;
    private ResultKind kind = ResultKind.FINAL;
    /** The key ids' text, or null for a result without it. */
    private final KeyText keys;
    private final int scale;
    private final StringBuilder sumText = new StringBuilder(24);

    /** A result without key text, of a long value (scale 0): {@link #key()} throws. */
    public WindowResult()
    {
        this(null, 0);
    }

    /**
     * @param keys  the text of the key ids this result will carry (owned by the thread that reads the result), or
     *              null for none.
     * @param scale the value's scale: a decimal column's, 0 for a long.
     */
    public WindowResult(final KeyText keys, final int scale)
    {
        this.keys = keys;
        this.scale = scale;
    }

    /** @return an empty result with this one's key text and scale. */
    WindowResult emptyLike()
    {
        return new WindowResult(keys, scale);
    }

    /**
     * Fill the flyweight with a stored result's fields (e.g. a {@code ResultDecoder}'s).
     *
     * @param result the fields to copy.
     * @return this.
     */
    public WindowResult copy(final ResultFields result)
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

    /**
     * @param rowKind what the row is (engine use): {@link ResultKind#FINAL} for a firing.
     * @return this.
     */
    public WindowResult kind(final ResultKind rowKind)
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
     * Set the one user aggregation's result (engine use): the result then carries one aggregate.
     *
     * @param value the result.
     * @return this.
     */
    public WindowResult withAggregate(final long value)
    {
        this.aggregateCount = 1;
        this.aggregates[0] = value;
        return this;
    }

    /**
     * Say how many user aggregations' results the result carries (engine use); set each with
     * {@link #withAggregate(int, long)}.
     *
     * @param count 0 to {@link ResultEncoder#MAX_AGGREGATES}.
     * @return this.
     */
    public WindowResult withAggregates(final int count)
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
     * Set one user aggregation's result (engine use).
     *
     * @param index 0 .. {@link #aggregateCount()} - 1.
     * @param value the result.
     * @return this.
     */
    public WindowResult withAggregate(final int index, final long value)
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

    /**
     * @return the key's text: the one key column's value, or the key columns' values joined by commas as a CSV
     *         result row joins them (a value holding a comma, quote or line break quoted as RFC 4180 has it). A
     *         flyweight, valid during the listener's call; allocates nothing for a key already seen.
     * @throws IllegalStateException for a result made without key text.
     */
    public CharSequence key()
    {
        return keyText().key(keyId);
    }

    /**
     * @param index a key column's position in the key, 0 .. {@link #keyColumnCount()} - 1.
     * @return that column's value as text (a decimal at its scale); a flyweight, valid until the next call.
     * @throws IllegalStateException for a result made without key text.
     */
    public CharSequence keyColumn(final int index)
    {
        return keyText().column(keyId, index);
    }

    /**
     * @param name a key column's name.
     * @return that column's value as text (a decimal at its scale); a flyweight, valid until the next call.
     * @throws IllegalArgumentException if no key column has that name.
     * @throws IllegalStateException    for a result made without key text.
     */
    public CharSequence keyColumn(final String name)
    {
        final int index = keyText().indexOf(name);
        if (index < 0)
        {
            throw new IllegalArgumentException("no key column '" + name + "': the key is " + keyNames());
        }
        return keyText().column(keyId, index);
    }

    /**
     * @return the number of key columns.
     * @throws IllegalStateException for a result made without key text.
     */
    public int keyColumnCount()
    {
        return keyText().arity();
    }

    /**
     * @param index a key column's position in the key.
     * @return its name.
     * @throws IllegalStateException for a result made without key text.
     */
    public String keyColumnName(final int index)
    {
        return keyText().name(index);
    }

    /** @return the fraction digits of the value, and so of the sum, min and max: a decimal column's scale, 0 for a long. */
    public int scale()
    {
        return scale;
    }

    /**
     * @param to where to append.
     * @return {@code to}, with the sum at the value's scale appended ({@code 12.50}); allocates nothing.
     */
    public StringBuilder appendSum(final StringBuilder to)
    {
        return DecimalText.append(to, sum, scale);
    }

    /** @return the sum at the value's scale ({@code 12.50}): a flyweight, valid until the next call; allocates nothing. */
    public CharSequence sumText()
    {
        sumText.setLength(0);
        return appendSum(sumText);
    }

    /** @return the sum at the value's scale, e.g. {@code 12.50}; allocates a {@link BigDecimal}. */
    public BigDecimal decimalSum()
    {
        return BigDecimal.valueOf(sum, scale);
    }

    /** @return the least value at the value's scale; allocates a {@link BigDecimal}. */
    public BigDecimal decimalMin()
    {
        return BigDecimal.valueOf(min, scale);
    }

    /** @return the greatest value at the value's scale; allocates a {@link BigDecimal}. */
    public BigDecimal decimalMax()
    {
        return BigDecimal.valueOf(max, scale);
    }

    private KeyText keyText()
    {
        if (keys == null)
        {
            throw new IllegalStateException("this result was made without key text: use keyId()");
        }
        return keys;
    }

    private String keyNames()
    {
        final StringBuilder names = new StringBuilder();
        for (int i = 0; i < keys.arity(); i++)
        {
            names.append(i == 0 ? "" : ",").append(keys.name(i));
        }
        return names.toString();
    }

    @Override
    public String toString()
    {
        final String row = windowStart + "," + windowEnd + ",#" + keyId + "," + count + "," + sum + "," + min + "," + max + "," + version;
        return kind == ResultKind.FINAL ? row : row + "," + kind.label();
    }
}
