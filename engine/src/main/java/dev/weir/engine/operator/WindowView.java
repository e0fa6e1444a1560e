package dev.weir.engine.operator;

import dev.weir.engine.state.WindowSlots;

/**
 * A read-only view of one open window's current aggregate, handed to a {@link WindowCondition} after an
 * event was added to the window: its bounds, key, count, sum, min, max and user aggregations' results, and the columns
 * the condition names of that event.
 * <p>
 * A reusable flyweight over the aggregation stage's state: valid only during the call it is passed to;
 * allocates nothing. Not thread-safe: the aggregation stage's thread only.
 */
public final class WindowView
{
    private WindowSlots slots;
    private int slot = WindowSlots.NONE;
    /** The columns of the event being added, as its ring slot carries them. */
    private long[] eventColumns = new long[0];

    /**
     * @param slots the state the view reads.
     */
    WindowView(final WindowSlots slots)
    {
        this.slots = slots;
    }

    /**
     * @param windowSlot an allocated slot of the state.
     * @return this, viewing it.
     */
    WindowView wrap(final WindowSlots from, final int windowSlot)
    {
        this.slots = from;
        return wrap(windowSlot);
    }

    WindowView wrap(final int windowSlot)
    {
        assert slots.isAllocated(windowSlot) : "a view of an allocated window";
        this.slot = windowSlot;
        return this;
    }

    /**
     * @param columns the columns of the event being added, as its ring slot carries them (by column index).
     * @return this.
     */
    WindowView event(final long[] columns)
    {
        this.eventColumns = columns;
        return this;
    }

    /**
     * @param column the index of a long or decimal column the condition names ({@link WindowCondition#columns()}):
     *               an event column, or a joined table's column.
     * @return its value (a decimal's unscaled long) in the event being added.
     */
    public long column(final int column)
    {
        return eventColumns[column];
    }

    /** @return inclusive window start, ms. */
    public long windowStart()
    {
        return slots.start(slot);
    }

    /** @return exclusive window end, ms. */
    public long windowEnd()
    {
        return slots.end(slot);
    }

    /** @return the key id. */
    public int keyId()
    {
        return slots.keyId(slot);
    }

    /** @return events aggregated so far. */
    public long count()
    {
        return slots.count(slot);
    }

    /** @return wrapping 64-bit sum of the values so far (a decimal value's unscaled sum). */
    public long sum()
    {
        return slots.sum(slot);
    }

    /** @return least value so far. */
    public long min()
    {
        return slots.min(slot);
    }

    /** @return greatest value so far. */
    public long max()
    {
        return slots.max(slot);
    }

    /** @return how many user aggregations the window keeps. */
    public int aggregateCount()
    {
        return slots.aggregations();
    }

    /**
     * @param index 0 .. {@link #aggregateCount()} - 1, in the order the aggregations were added.
     * @return that aggregation's current result (a named aggregate's unscaled at its scale; 0 without a value).
     */
    public long aggregate(final int index)
    {
        return slots.aggregate(slot, index);
    }

    /**
     * @param index 0 .. {@link #aggregateCount()} - 1.
     * @return false if the window has no value for that aggregation yet (a named aggregate over no matching event);
     *         true for a user aggregation.
     */
    public boolean hasAggregate(final int index)
    {
        return slots.hasValue(slot, index);
    }
}
