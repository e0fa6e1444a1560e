package dev.weir.engine.join;

import dev.weir.journal.schema.EventView;

/**
 * An event with the rows its joins found: the event's columns (indices 0..n-1), then each join's table columns, in
 * join order and each table's column order, the indices continuing, as {@code ExpressionColumns} numbers them. A
 * table string column's ids are its {@link TableTexts} ids. A flyweight over the event handed to {@link #join}, valid
 * while that event is; reading allocates nothing.
 * <p>
 * Not thread-safe: the publisher's.
 */
public final class JoinedView implements EventView
{
    private final AsOfJoin[] joins;
    private final int eventColumns;
    /** Per joined column (index - n), its join. */
    private final AsOfJoin[] joinOf;
    /** Per joined column (index - n), its column in its table. */
    private final int[] columnOf;
    private EventView event;

    /**
     * @param eventColumns the number of the event's columns, n.
     * @param joins        the joins, in order.
     */
    public JoinedView(final int eventColumns, final AsOfJoin[] joins)
    {
        this.joins = joins.clone();
        this.eventColumns = eventColumns;
        int width = 0;
        for (final AsOfJoin join : joins)
        {
            width += join.definition().columns().size();
        }
        joinOf = new AsOfJoin[width];
        columnOf = new int[width];
        int i = 0;
        for (final AsOfJoin join : joins)
        {
            for (int c = 0; c < join.definition().columns().size(); c++, i++)
            {
                joinOf[i] = join;
                columnOf[i] = c;
            }
        }
    }

    /**
     * Look an event up in every join.
     *
     * @param view    the event, valid during the call and while this view is read.
     * @param horizon the current horizon.
     * @return true if every join found a row; false if one found none (its columns then read the table's defaults).
     */
    public boolean join(final EventView view, final long horizon)
    {
        this.event = view;
        boolean all = true;
        for (final AsOfJoin join : joins)
        {
            all &= join.find(view, horizon); // every join looks up, so each reads its defaults when it found none
        }
        return all;
    }

    /** @return the number of columns: the event's, then every joined table's. */
    public int size()
    {
        return eventColumns + columnOf.length;
    }

    @Override
    public long eventId()
    {
        return event.eventId();
    }

    @Override
    public long eventTime()
    {
        return event.eventTime();
    }

    @Override
    public long longColumn(final int column)
    {
        if (column < eventColumns)
        {
            return event.longColumn(column);
        }
        return joinOf[column - eventColumns].longColumn(columnOf[column - eventColumns]);
    }

    @Override
    public int stringId(final int column)
    {
        if (column < eventColumns)
        {
            return event.stringId(column);
        }
        return joinOf[column - eventColumns].stringId(columnOf[column - eventColumns]);
    }

    /**
     * @param column a joined column's index (at or past the event's columns).
     * @return the texts of that table string column.
     */
    TableTexts texts(final int column)
    {
        return joinOf[column - eventColumns].texts(columnOf[column - eventColumns]);
    }

    /** @return the number of the event's columns. */
    int eventColumns()
    {
        return eventColumns;
    }
}
