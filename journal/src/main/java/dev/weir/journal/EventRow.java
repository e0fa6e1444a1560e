package dev.weir.journal;

import dev.weir.journal.codec.EventShape;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.EventView;
import dev.weir.journal.schema.JournalSchema;

/**
 * One event to append, column by column: the reusable row of an {@link EventJournal} ({@link EventJournal#row()}).
 * Set its id, time and every column, then hand it to {@link EventJournal#append(EventRow)} or
 * {@link EventJournal#appendIngested(EventRow, long, long)}; each append consumes the row, so the next
 * event sets every field again (an append of a row with a field left unset is refused). A column the journal
 * gained after it was created may be left unset: it is appended with its default, so a writer built for the
 * columns the journal had goes on working when columns are added. A string column
 * takes an id from {@link EventJournal#stringId(int, String)}.
 * <p>
 * Setting and reading allocate nothing. Not thread-safe: the appending thread's.
 */
public final class EventRow implements EventView
{
    private static final long EVENT_ID = 1L << 32;
    private static final long EVENT_TIME = 1L << 33;

    private final EventShape shape;
    private final long[] longs;
    private final int[] ids;
    private final long complete;
    /** The columns a row may leave unset: those added after the journal was created, which have defaults. */
    private final long added;
    private long eventId;
    private long eventTime;
    private long set;

    /**
     * A row bound to no journal, for code that hands events of a schema to the window stages without one
     * (a test driver, say): the same {@link EventView}, set the same way. It is never appended.
     *
     * @param schema the columns.
     * @return a new row.
     */
    public static EventRow of(final JournalSchema schema)
    {
        return new EventRow(EventShape.of(schema));
    }

    EventRow(final EventShape shape)
    {
        this.shape = shape;
        this.longs = new long[shape.columns()];
        this.ids = new int[shape.columns()];
        this.complete = EVENT_ID | EVENT_TIME | ((1L << shape.columns()) - 1);
        long added = 0;
        for (int c = 0; c < shape.columns(); c++)
        {
            added |= shape.generationOf(c) > 1 ? 1L << c : 0;
        }
        this.added = added;
    }

    /** @return the schema of the rows' journal. */
    public JournalSchema schema()
    {
        return shape.schema();
    }

    /** @param eventId the event's id. @return this. */
    public EventRow eventId(final long eventId)
    {
        this.eventId = eventId;
        set |= EVENT_ID;
        return this;
    }

    /** @param eventTime the event's time, epoch ms, 0 to {@link EventJournal#MAX_EVENT_TIME}. @return this. */
    public EventRow eventTime(final long eventTime)
    {
        this.eventTime = eventTime;
        set |= EVENT_TIME;
        return this;
    }

    /**
     * @param column the index of a {@link ColumnType#LONG} or {@link ColumnType#DECIMAL} column.
     * @param value  its value (a decimal's unscaled long).
     * @return this.
     * @throws IllegalArgumentException if the column is a string column.
     */
    public EventRow setLong(final int column, final long value)
    {
        if (shape.isString(column))
        {
            throw new IllegalArgumentException("column " + shape.schema().column(column) + " is a string column: setString");
        }
        longs[column] = value;
        set |= 1L << column;
        return this;
    }

    /**
     * @param column the index of a {@link ColumnType#STRING} column.
     * @param id     an id from {@link EventJournal#stringId(int, String)} for that column.
     * @return this.
     * @throws IllegalArgumentException if the column is not a string column.
     */
    public EventRow setString(final int column, final int id)
    {
        if (!shape.isString(column))
        {
            throw new IllegalArgumentException("column " + shape.schema().column(column) + " is not a string column: setLong");
        }
        ids[column] = id;
        set |= 1L << column;
        return this;
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

    EventShape shape()
    {
        return shape;
    }

    /**
     * Consume the row: check that every field was set since the last append, give an added column left unset
     * its default, and forget which were set.
     *
     * @throws IllegalStateException naming the first field left unset that has no default.
     */
    void take()
    {
        final long wasSet = set;
        set = 0;
        if (wasSet != complete)
        {
            final long unset = complete & ~wasSet;
            if ((unset & ~added) != 0)
            {
                throw new IllegalStateException("row of " + shape.schema() + " appended without " + firstUnset(wasSet | added));
            }
            for (long rest = unset; rest != 0; rest &= rest - 1)
            {
                final int c = Long.numberOfTrailingZeros(rest);
                if (shape.isString(c))
                {
                    ids[c] = (int)shape.defaultOf(c);
                }
                else
                {
                    longs[c] = shape.defaultOf(c);
                }
            }
        }
    }

    private String firstUnset(final long wasSet)
    {
        if ((wasSet & EVENT_ID) == 0)
        {
            return "event_id";
        }
        if ((wasSet & EVENT_TIME) == 0)
        {
            return "event_time";
        }
        for (int c = 0; c < shape.columns(); c++)
        {
            if ((wasSet & 1L << c) == 0)
            {
                return shape.schema().column(c).name();
            }
        }
        return "?";
    }
}
