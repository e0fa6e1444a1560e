package dev.weir.engine.aggregate;

import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.JournalSchema;

/**
 * The whole event an {@link Aggregation} that {@link Aggregation#readsColumns() reads columns} is handed
 * with each value: every column of the journal's {@link #schema()}, by column index (0 for the first named
 * column), as the source copied it into the event's ring slot. A string column reads as its dictionary
 * id, a long column as its value, a decimal column as its unscaled long.
 * <p>
 * A flyweight over a pre-allocated {@code long[]}, valid only during the call it is passed to; reading
 * allocates nothing. Not thread-safe: the engine's last-stage thread.
 */
public final class EventColumns
{
    private final JournalSchema schema;
    private long[] columns;

    /**
     * @param schema the journal's schema, whose columns the wrapped arrays hold.
     */
    public EventColumns(final JournalSchema schema)
    {
        this.schema = schema;
    }

    /**
     * Point at one event's columns (engine use).
     *
     * @param values one long per column of the schema (then, with joins, one per joined table column, not read here).
     * @return this.
     */
    public EventColumns wrap(final long[] values)
    {
        assert values.length == 0 || values.length >= schema.size() : "one long per column of the schema (then joined columns)";
        this.columns = values;
        return this;
    }

    /** @return the journal's schema: its columns' names, types and scales. */
    public JournalSchema schema()
    {
        return schema;
    }

    /**
     * @param column the index of a {@link ColumnType#LONG} or {@link ColumnType#DECIMAL} column.
     * @return its value (a decimal's unscaled long).
     */
    public long longValue(final int column)
    {
        assert schema.column(column).type() != ColumnType.STRING : "a long or decimal column";
        return columns[column];
    }

    /**
     * @param column the index of a {@link ColumnType#STRING} column.
     * @return the id of its value in that column's dictionary.
     */
    public int stringId(final int column)
    {
        assert schema.column(column).type() == ColumnType.STRING : "a string column";
        return (int)columns[column];
    }

    /**
     * @param column any column's index.
     * @return its value as the slot holds it: a string's id, a long, a decimal's unscaled long.
     */
    public long raw(final int column)
    {
        return columns[column];
    }
}
