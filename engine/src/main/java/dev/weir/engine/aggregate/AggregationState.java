package dev.weir.engine.aggregate;

/**
 * A flyweight over the fixed number of longs an {@link Aggregation} keeps for one window, inside the
 * engine's window slots. Valid only during the call it is passed to. Not thread-safe: the engine's
 * last-stage thread.
 */
public final class AggregationState
{
    private long[] array;
    private int offset;
    private int length;

    /**
     * Point at a region of longs.
     *
     * @param longs  the array.
     * @param start  the region's first index.
     * @param size   how many longs it has.
     * @return this.
     */
    public AggregationState wrap(final long[] longs, final int start, final int size)
    {
        this.array = longs;
        this.offset = start;
        this.length = size;
        return this;
    }

    /**
     * Point at a part of another state's region (a result expression's calls, each in its own part).
     *
     * @param outer the state whose region holds the part.
     * @param start the part's first index in that region.
     * @param size  how many longs it has.
     * @return this.
     */
    AggregationState within(final AggregationState outer, final int start, final int size)
    {
        return wrap(outer.array, outer.offset + start, size);
    }

    /**
     * @param index 0 .. {@link Aggregation#stateLongs()} - 1.
     * @return the long at that index.
     */
    public long get(final int index)
    {
        return array[offset + check(index)];
    }

    /**
     * @param index 0 .. {@link Aggregation#stateLongs()} - 1.
     * @param value the new value.
     */
    public void set(final int index, final long value)
    {
        array[offset + check(index)] = value;
    }

    private int check(final int index)
    {
        if (index < 0 || index >= length)
        {
            throw new IndexOutOfBoundsException("state index " + index + " of " + length);
        }
        return index;
    }
}
