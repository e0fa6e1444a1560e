package dev.weir.engine.expr;

import dev.weir.journal.schema.EventView;

/** A mutable event of any schema for tests: long columns and string ids by column index. */
final class TestEvent implements EventView
{
    long eventId;
    long eventTime;
    final long[] longs;
    final int[] ids;

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
