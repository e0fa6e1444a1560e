package dev.weir.journal.codec;

import net.openhft.chronicle.bytes.BytesIn;

/**
 * Reads one result document (layout: {@link ResultEncoder}) in place, allocating nothing. Wrapped by
 * {@link OutputDecoder}; valid while the document is. A reusable flyweight; not thread-safe: one owner thread.
 */
public final class ResultDecoder implements ResultFields
{
    private BytesIn<?> in;
    private long start;
    private int aggregates;

    /**
     * @param in           the bytes holding the document.
     * @param start        the offset of its type byte.
     * @param hasAggregate true if it carries a user aggregation's value.
     * @return this.
     */
    public ResultDecoder wrap(final BytesIn<?> in, final long start, final boolean hasAggregate)
    {
        return wrap(in, start, hasAggregate ? 1 : 0);
    }

    /**
     * @param in         the bytes holding the document.
     * @param start      the offset of its type byte.
     * @param aggregates how many user aggregations' values it carries (see {@link ResultEncoder#aggregates(long)}).
     * @return this.
     */
    public ResultDecoder wrap(final BytesIn<?> in, final long start, final int aggregates)
    {
        assert aggregates >= 0 && aggregates <= ResultEncoder.MAX_AGGREGATES : "0 to MAX_AGGREGATES aggregates";
        this.in = in;
        this.start = start;
        this.aggregates = aggregates;
        return this;
    }

    /** @return what the stored row is, from its document type. */
    @Override
    public ResultKind kind()
    {
        final ResultKind kind = ResultKind.ofDocumentType(in.readUnsignedByte(start));
        assert kind != null : "a result document";
        return kind;
    }

    @Override
    public long windowStart()
    {
        return in.readLong(start + ResultEncoder.WINDOW_START);
    }

    @Override
    public long windowEnd()
    {
        return in.readLong(start + ResultEncoder.WINDOW_END);
    }

    @Override
    public long count()
    {
        return in.readLong(start + ResultEncoder.COUNT);
    }

    @Override
    public long sum()
    {
        return in.readLong(start + ResultEncoder.SUM);
    }

    @Override
    public long min()
    {
        return in.readLong(start + ResultEncoder.MIN);
    }

    @Override
    public long max()
    {
        return in.readLong(start + ResultEncoder.MAX);
    }

    @Override
    public long sourceOffset()
    {
        return in.readLong(start + ResultEncoder.SOURCE_OFFSET);
    }

    @Override
    public int keyId()
    {
        return in.readInt(start + ResultEncoder.KEY_ID);
    }

    @Override
    public int version()
    {
        return in.readInt(start + ResultEncoder.RESULT_VERSION);
    }

    /** @return true if the result carries a user aggregation's value. */
    public boolean hasAggregate()
    {
        return aggregates > 0;
    }

    /** @return the first user aggregation's value, or 0 without one. */
    @Override
    public long aggregate()
    {
        return aggregates > 0 ? in.readLong(start + ResultEncoder.LENGTH) : 0;
    }

    /** @return how many user aggregations' values the result carries, 0 without one. */
    @Override
    public int aggregateCount()
    {
        return aggregates;
    }

    @Override
    public long aggregate(final int index)
    {
        if (index < 0 || index >= aggregates)
        {
            throw new IndexOutOfBoundsException("aggregate " + index + " of " + aggregates);
        }
        return in.readLong(start + ResultEncoder.LENGTH + (long)index * Long.BYTES);
    }

    /**
     * @param result        a result.
     * @param withAggregate true if the stored result should carry {@code result}'s aggregate.
     * @return true if this stored result holds exactly {@code result}'s fields.
     */
    public boolean matches(final ResultFields result, final boolean withAggregate)
    {
        return matches(result, withAggregate ? 1 : 0);
    }

    /**
     * @param result     a result.
     * @param aggregates how many of {@code result}'s aggregates the stored result should carry.
     * @return true if this stored result holds exactly {@code result}'s kind, fields and those aggregates.
     */
    public boolean matches(final ResultFields result, final int aggregates)
    {
        if (windowStart() != result.windowStart() || windowEnd() != result.windowEnd() || keyId() != result.keyId()
            || count() != result.count() || sum() != result.sum() || min() != result.min() || max() != result.max()
            || version() != result.version() || sourceOffset() != result.sourceOffset() || this.aggregates != aggregates
            || kind() != result.kind())
        {
            return false;
        }
        for (int i = 0; i < aggregates; i++)
        {
            if (aggregate(i) != result.aggregate(i))
            {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString()
    {
        final ResultKind kind = kind();
        final StringBuilder b = new StringBuilder(kind == ResultKind.FINAL ? "result " : kind.label() + " result ").append(windowStart()).append(',').append(windowEnd()).append(",#").append(keyId())
            .append(',').append(count()).append(',').append(sum()).append(',').append(min()).append(',').append(max()).append(',')
            .append(version()).append(" (source offset ").append(sourceOffset()).append(')');
        if (aggregates == 1)
        {
            b.append(" aggregate ").append(aggregate());
        }
        else if (aggregates > 1)
        {
            b.append(" aggregates");
            for (int i = 0; i < aggregates; i++)
            {
                b.append(i == 0 ? " " : ",").append(aggregate(i));
            }
        }
        return b.toString();
    }
}
