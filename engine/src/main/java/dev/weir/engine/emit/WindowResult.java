package dev.weir.engine.emit;

import java.math.BigDecimal;
import java.util.Objects;

import dev.weir.engine.aggregate.BoundAggregates;
import dev.weir.journal.codec.ResultEncoder;
import dev.weir.journal.codec.ResultFields;
import dev.weir.journal.codec.ResultKind;

/**
 * One row of one (key, window), of a {@link #kind()}: a firing ({@link ResultKind#FINAL}), an update or the
 * early row; the row {@code window_start,window_end,key,count,sum,min,max,version},
 * and the values of the pipeline's user aggregations ({@link #aggregate(int)}, {@link #aggregateCount()}).
 * Its fields ({@link ResultFields}) are what the output journal stores for it ({@code ResultEncoder.copy}). It
 * reads them from the fields it is made over ({@link #WindowResult(ResultFields, KeyText, int)}): the engine's, or
 * a stored result's; it has no setters.
 * <p>
 * The key and the numbers in the user's terms: {@link #key()} is the key's text (its columns joined as a CSV
 * result row joins them), {@link #keyColumn(int)} and {@link #keyColumn(String)} one key column's value;
 * {@link #scale()} is the value's scale (a decimal column's, 0 for a long), {@link #appendSum(StringBuilder)}
 * and {@link #sumText()} write the sum at that scale ({@code 12.50}) without allocating, and
 * {@link #decimalSum()}, {@link #decimalMin()} and {@link #decimalMax()} return {@link BigDecimal}s (allocating:
 * off the hot path). The engine's results carry the pipeline's key text; the key text of a key already seen
 * allocates nothing (the first result of a pipeline reads the journal's dictionaries, a new key its definition).
 * <p>
 * With named aggregates ({@code PipelineBuilder.aggregates(String)}) the values are theirs: {@link #aggregateCount()}
 * is how many, {@link #aggregateName(int)} and {@link #aggregateScale(int)} say what each is, and
 * {@link #hasAggregate(int)} whether the window has a value for it (an aggregate over no matching event has none;
 * its {@link #aggregate(int)} is then 0). The fields carry one long more, last: the presence mask, bit i set when
 * aggregate i has a value; it is what the output journal stores, and not one of the aggregates.
 * <p>
 * A reusable flyweight: the engine fills the same instance for every result and hands it to
 * {@link ResultListener#onResult(WindowResult)} on the engine thread. It is valid only during that call:
 * copy what you keep. Not thread-safe.
 */
public final class WindowResult implements ResultFields
{
    private final ResultFields fields;
    /** The key ids' text, or null for a result without it. */
    private final KeyText keys;
    private final int scale;
    /** The named aggregates the values are of, or null for user aggregations' values. */
    private final BoundAggregates named;
    private final StringBuilder sumText = new StringBuilder(24);

    /**
     * A result over these fields, without key text ({@link #key()} throws), of a long value (scale 0).
     *
     * @param fields the fields it reads, e.g. a stored result's ({@code ResultDecoder}).
     */
    public WindowResult(final ResultFields fields)
    {
        this(fields, null, 0);
    }

    /**
     * @param fields the fields it reads: the engine's, or a stored result's ({@code ResultDecoder}).
     * @param keys   the text of the key ids they carry (owned by the thread that reads the result), or null for none.
     * @param scale  the value's scale: a decimal column's, 0 for a long.
     */
    public WindowResult(final ResultFields fields, final KeyText keys, final int scale)
    {
        this(fields, keys, scale, null);
    }

    /**
     * @param fields the fields it reads: the engine's, or a stored result's ({@code ResultDecoder}); with named
     *               aggregates, their values then the presence mask.
     * @param keys   the text of the key ids they carry (owned by the thread that reads the result), or null for none.
     * @param scale  the value's scale: a decimal column's, 0 for a long.
     * @param named  the named aggregates whose values the fields carry, or null for user aggregations' values.
     */
    public WindowResult(final ResultFields fields, final KeyText keys, final int scale, final BoundAggregates named)
    {
        this.fields = Objects.requireNonNull(fields, "fields");
        this.keys = keys;
        this.scale = scale;
        this.named = named;
    }

    /**
     * @param other other fields.
     * @return a result over them with this one's key text, scale and named aggregates.
     */
    WindowResult over(final ResultFields other)
    {
        return new WindowResult(other, keys, scale, named);
    }

    /**
     * @return the fields as the output journal stores them: with named aggregates, their values then the presence
     *         mask ({@link #aggregateCount()} does not count the mask).
     */
    ResultFields stored()
    {
        return fields;
    }

    /**
     * @return what the row is: a firing ({@link ResultKind#FINAL}), an update after an event (with
     *         {@code emitUpdates}) or the window's early row (with {@code earlyWhen}); update and early rows carry
     *         the version the window's next firing will carry.
     */
    @Override
    public ResultKind kind()
    {
        return fields.kind();
    }

    /**
     * @return the result of the pipeline's first user aggregation ({@code PipelineBuilder.aggregate}), or 0
     *         without one; stored with the result in the output journal.
     */
    @Override
    public long aggregate()
    {
        return fields.aggregateCount() == 0 ? 0 : fields.aggregate();
    }

    /**
     * @return how many user aggregations' results this result carries: the pipeline's aggregations; with named
     *         aggregates, how many (the presence mask not counted).
     */
    @Override
    public int aggregateCount()
    {
        return named == null ? fields.aggregateCount() : named.size();
    }

    /**
     * @param index 0 .. {@link #aggregateCount()} - 1, in the order the aggregations were added (named aggregates: in
     *              the order of the list).
     * @return that aggregation's result, stored with the result in the output journal (a named aggregate's unscaled
     *         at {@link #aggregateScale(int)}); 0 for an index at or past the count (below
     *         {@link ResultEncoder#MAX_AGGREGATES}), and for a named aggregate without a value.
     */
    @Override
    public long aggregate(final int index)
    {
        if (index < 0 || index >= ResultEncoder.MAX_AGGREGATES)
        {
            throw new IndexOutOfBoundsException("aggregate " + index + " of at most " + ResultEncoder.MAX_AGGREGATES);
        }
        return index < aggregateCount() ? fields.aggregate(index) : 0;
    }

    /**
     * @param index 0 .. {@link #aggregateCount()} - 1.
     * @return false if the window has no value for that named aggregate (one over no matching event: outputs show it
     *         empty); true for a user aggregation, which always has one.
     */
    public boolean hasAggregate(final int index)
    {
        if (index < 0 || index >= aggregateCount())
        {
            throw new IndexOutOfBoundsException("aggregate " + index + " of " + aggregateCount());
        }
        return named == null || (fields.aggregate(named.size()) & (1L << index)) != 0;
    }

    /**
     * @param index 0 .. {@link #aggregateCount()} - 1.
     * @return the fraction digits of that named aggregate's values (0 for a whole number); 0 for a user aggregation.
     */
    public int aggregateScale(final int index)
    {
        return named == null ? 0 : named.scale(index);
    }

    /**
     * @param index 0 .. {@link #aggregateCount()} - 1.
     * @return that named aggregate's name, e.g. {@code vwap}; null for a user aggregation.
     */
    public String aggregateName(final int index)
    {
        return named == null ? null : named.name(index);
    }

    /** @return inclusive window start, ms. */
    @Override
    public long windowStart()
    {
        return fields.windowStart();
    }

    /** @return exclusive window end, ms. */
    @Override
    public long windowEnd()
    {
        return fields.windowEnd();
    }

    /** @return the key id (see {@code KeyDictionary}); {@link #key()} is its text. */
    @Override
    public int keyId()
    {
        return fields.keyId();
    }

    /** @return events aggregated. */
    @Override
    public long count()
    {
        return fields.count();
    }

    /** @return wrapping 64-bit sum of values, unscaled ({@link #decimalSum()} is at the value's scale). */
    @Override
    public long sum()
    {
        return fields.sum();
    }

    /** @return least value, unscaled. */
    @Override
    public long min()
    {
        return fields.min();
    }

    /** @return greatest value, unscaled. */
    @Override
    public long max()
    {
        return fields.max();
    }

    /** @return 0 for a window's first firing, then one more for each re-firing. */
    @Override
    public int version()
    {
        return fields.version();
    }

    /** @return journal offset of the event that caused this firing (end of input: the last event's). */
    @Override
    public long sourceOffset()
    {
        return fields.sourceOffset();
    }

    /**
     * @return the key's text: the one key column's value, or the key columns' values joined by commas as a CSV
     *         result row joins them (a value holding a comma, quote or line break quoted as RFC 4180 has it). A
     *         flyweight, valid during the listener's call; allocates nothing for a key already seen.
     * @throws IllegalStateException for a result made without key text.
     */
    public CharSequence key()
    {
        return keyText().key(keyId());
    }

    /**
     * @param index a key column's position in the key, 0 .. {@link #keyColumnCount()} - 1.
     * @return that column's value as text (a decimal at its scale); a flyweight, valid until the next call.
     * @throws IllegalStateException for a result made without key text.
     */
    public CharSequence keyColumn(final int index)
    {
        return keyText().column(keyId(), index);
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
        return keyText().column(keyId(), index);
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
        return DecimalText.append(to, sum(), scale);
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
        return BigDecimal.valueOf(sum(), scale);
    }

    /** @return the least value at the value's scale; allocates a {@link BigDecimal}. */
    public BigDecimal decimalMin()
    {
        return BigDecimal.valueOf(min(), scale);
    }

    /** @return the greatest value at the value's scale; allocates a {@link BigDecimal}. */
    public BigDecimal decimalMax()
    {
        return BigDecimal.valueOf(max(), scale);
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
        final StringBuilder row = new StringBuilder().append(windowStart()).append(',').append(windowEnd()).append(",#").append(keyId());
        if (named == null)
        {
            row.append(',').append(count()).append(',').append(sum()).append(',').append(min()).append(',').append(max());
        }
        else
        {
            for (int i = 0; i < named.size(); i++)
            {
                row.append(',').append(named.name(i)).append('=');
                if (hasAggregate(i))
                {
                    DecimalText.append(row, aggregate(i), aggregateScale(i));
                }
            }
        }
        row.append(',').append(version());
        return kind() == ResultKind.FINAL ? row.toString() : row.append(',').append(kind().label()).toString();
    }
}
