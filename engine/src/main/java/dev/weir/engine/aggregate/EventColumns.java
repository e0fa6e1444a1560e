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
    private static final long[] NONE = new long[0];

    private long[] columns;
    private long[] inputs = NONE;
    private long matched;
    private long eventTime;
    private long offset;

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

    /**
     * Point at one event's columns, aggregate inputs, filter verdicts, time and journal offset (engine use).
     *
     * @param values    one long per column of the schema (then joined columns), or an empty array.
     * @param inputs    the event's aggregate inputs ({@link AggregateInputs#fill}).
     * @param matched   the filter bitmask {@link AggregateInputs#fill} returned.
     * @param eventTime the event's time, epoch ms.
     * @param offset    the event's offset in its journal.
     * @return this.
     */
    public EventColumns wrap(final long[] values, final long[] inputs, final long matched, final long eventTime, final long offset)
    {
        wrap(values);
        this.inputs = inputs;
        this.matched = matched;
        this.eventTime = eventTime;
        this.offset = offset;
        return this;
    }

    /**
     * @param i an input index, 0 .. {@link BoundAggregates#inputCount()} - 1.
     * @return the event's input long there.
     */
    public long input(final int i)
    {
        return inputs[i];
    }

    /**
     * @param filter a filter index of the named aggregates, 0 to 63.
     * @return true if the event matched that filter.
     */
    public boolean matched(final int filter)
    {
        return (matched & (1L << filter)) != 0;
    }

    /** @return the event's time, epoch ms. */
    public long eventTime()
    {
        return eventTime;
    }

    /** @return the event's offset in its journal: its place in journal order. */
    public long offset()
    {
        return offset;
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
