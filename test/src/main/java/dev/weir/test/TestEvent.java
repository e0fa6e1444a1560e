package dev.weir.test;

import dev.weir.journal.EventView;

/**
 * One event as the driver hands it to the window stages: the {@link EventView} a journal reader would hand
 * over, held in arrays instead of a stored document. Reused for every event.
 * <p>
 * Not thread-safe: the driver's.
 */
final class TestEvent implements EventView
{
    /** Per column: a long column's value or a decimal's unscaled long; unused for a string column. */
    final long[] longs;
    /** Per column: a string column's dictionary id; unused for the others. */
    final int[] ids;
    long eventId;
    long eventTime;

    /**
     * @param columns the schema's size.
     */
    TestEvent(final int columns)
    {
        this.longs = new long[columns];
        this.ids = new int[columns];
    }

    @Override
    public long eventId()
    {
        return eventId;
    }

    @Override
    public long eventTime()
    {
        return eventTime;
    }

    @Override
    public long longColumn(final int column)
    {
        return longs[column];
    }

    @Override
    public int stringId(final int column)
    {
        return ids[column];
    }
}
