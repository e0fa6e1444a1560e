package dev.weir.journal;

import net.openhft.chronicle.bytes.BytesIn;

/**
 * Reads one result document (layout: {@link ResultEncoder}) in place, allocating nothing. Wrapped by
 * {@link OutputDecoder}; valid while the document is. A reusable flyweight; not thread-safe: one owner thread.
 */
public final class ResultDecoder implements ResultFields
{
    private BytesIn<?> in;
    private long start;
    private boolean hasAggregate;

    /**
     * @param in           the bytes holding the document.
     * @param start        the offset of its type byte.
     * @param hasAggregate true if it carries a user aggregation's value.
     * @return this.
     */
    public ResultDecoder wrap(final BytesIn<?> in, final long start, final boolean hasAggregate)
    {
        this.in = in;
        this.start = start;
        this.hasAggregate = hasAggregate;
        return this;
    }

    @Override
    public long windowStart()
    {
        return in.readLong(start + 1);
    }

    @Override
    public long windowEnd()
    {
        return in.readLong(start + 9);
    }

    @Override
    public long count()
    {
        return in.readLong(start + 17);
    }

    @Override
    public long sum()
    {
        return in.readLong(start + 25);
    }

    @Override
    public long min()
    {
        return in.readLong(start + 33);
    }

    @Override
    public long max()
    {
        return in.readLong(start + 41);
    }

    @Override
    public long sourceOffset()
    {
        return in.readLong(start + 49);
    }

    @Override
    public int keyId()
    {
        return in.readInt(start + 57);
    }

    @Override
    public int version()
    {
        return in.readInt(start + 61);
    }

    /** @return true if the result carries a user aggregation's value. */
    public boolean hasAggregate()
    {
        return hasAggregate;
    }

    @Override
    public long aggregate()
    {
        return hasAggregate ? in.readLong(start + ResultEncoder.LENGTH) : 0;
    }

    /**
     * @param result        a result.
     * @param withAggregate true if the stored result should carry {@code result}'s aggregate.
     * @return true if this stored result holds exactly {@code result}'s fields.
     */
    public boolean matches(final ResultFields result, final boolean withAggregate)
    {
        return windowStart() == result.windowStart() && windowEnd() == result.windowEnd() && keyId() == result.keyId()
            && count() == result.count() && sum() == result.sum() && min() == result.min() && max() == result.max()
            && version() == result.version() && sourceOffset() == result.sourceOffset() && hasAggregate == withAggregate
            && aggregate() == (withAggregate ? result.aggregate() : 0);
    }

    @Override
    public String toString()
    {
        return "result " + windowStart() + "," + windowEnd() + ",#" + keyId() + "," + count() + "," + sum() + "," + min() + "," + max()
            + "," + version() + " (source offset " + sourceOffset() + ")" + (hasAggregate ? " aggregate " + aggregate() : "");
    }
}
