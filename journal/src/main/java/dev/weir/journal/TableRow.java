package dev.weir.journal;

import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.StringFormat;
import dev.weir.journal.schema.TableDefinition;

/**
 * A mutable row of one reference table, to append with its {@link TableAppender}: a valid-from time and every column
 * of the table. {@link #clear()} sets every column to its default ({@code 0} or {@code ""} if it has none) and the
 * valid-from time to 0. A string is copied into the row's own buffer, so setting one allocates nothing once the
 * buffer has grown to it; it is checked as an event's string is ({@link StringFormat}: 1 to
 * {@value JournalSchema#MAX_STRING_BYTES} bytes of UTF-8, no line break).
 * <p>
 * Not thread-safe: one owner thread (the journal's appending thread).
 */
public final class TableRow
{
    private final TableDefinition definition;
    private final JournalSchema columns;
    private final long[] longs;
    private final StringBuilder[] strings;
    /** Per long or decimal column, its default (0 if it has none). */
    private final long[] defaults;
    private long validFrom;

    TableRow(final TableDefinition definition)
    {
        this.definition = definition;
        this.columns = definition.columns();
        this.longs = new long[columns.size()];
        this.strings = new StringBuilder[columns.size()];
        this.defaults = new long[columns.size()];
        for (int c = 0; c < columns.size(); c++)
        {
            final JournalSchema.Column column = columns.column(c);
            if (column.type() == ColumnType.STRING)
            {
                strings[c] = new StringBuilder(JournalSchema.MAX_STRING_BYTES);
            }
            else
            {
                defaults[c] = column.hasDefault() ? column.defaultLong() : 0;
            }
        }
        clear();
    }

    /** @return the table's definition. */
    public TableDefinition definition()
    {
        return definition;
    }

    /**
     * @param epochMs the time the row is valid from, epoch ms, 0 to {@link EventJournal#MAX_EVENT_TIME}.
     * @return this.
     * @throws IllegalArgumentException if it is out of range.
     */
    public TableRow validFrom(final long epochMs)
    {
        if (epochMs < 0 || epochMs > EventJournal.MAX_EVENT_TIME)
        {
            throw new IllegalArgumentException("table " + definition.name() + ": valid-from must be between 0 and "
                + EventJournal.MAX_EVENT_TIME + ": " + epochMs);
        }
        this.validFrom = epochMs;
        return this;
    }

    /**
     * @param column the index of a long or decimal column.
     * @param value  its value (a decimal's unscaled long).
     * @return this.
     * @throws IllegalArgumentException if it is not such a column.
     */
    public TableRow setLong(final int column, final long value)
    {
        if (column < 0 || column >= longs.length || strings[column] != null)
        {
            throw new IllegalArgumentException("table " + definition.name() + ": column " + column + " is not a long or decimal column of "
                + columns);
        }
        longs[column] = value;
        return this;
    }

    /**
     * @param column the index of a string column.
     * @param text   its text: 1 to {@value JournalSchema#MAX_STRING_BYTES} bytes of UTF-8, no line break; copied.
     * @return this.
     * @throws IllegalArgumentException if it is not a string column or the text breaks the rule (the row keeps its
     *                                  former text).
     */
    public TableRow setString(final int column, final CharSequence text)
    {
        if (column < 0 || column >= strings.length || strings[column] == null)
        {
            throw new IllegalArgumentException("table " + definition.name() + ": column " + column + " is not a string column of " + columns);
        }
        final String why = StringFormat.whyInvalid(text);
        if (why != null)
        {
            throw new IllegalArgumentException(why + " in column " + columns.column(column).name() + " of table " + definition.name());
        }
        strings[column].setLength(0);
        strings[column].append(text);
        return this;
    }

    /**
     * @param name a column's name.
     * @return its index.
     * @throws IllegalArgumentException naming the table's columns if it has none of that name.
     */
    public int column(final String name)
    {
        final int index = columns.indexOf(name);
        if (index < 0)
        {
            throw new IllegalArgumentException("table " + definition.name() + " has no column '" + name + "': its columns are " + columns);
        }
        return index;
    }

    /** @return this, every column at its default (0 or "" if it has none), valid from 0. */
    public TableRow clear()
    {
        validFrom = 0;
        for (int c = 0; c < longs.length; c++)
        {
            final JournalSchema.Column column = columns.column(c);
            if (strings[c] != null)
            {
                strings[c].setLength(0);
                if (column.hasDefault())
                {
                    strings[c].append(column.defaultValue());
                }
            }
            else
            {
                longs[c] = defaults[c];
            }
        }
        return this;
    }

    long validFrom()
    {
        return validFrom;
    }

    long longColumn(final int column)
    {
        return longs[column];
    }

    CharSequence string(final int column)
    {
        return strings[column];
    }

    boolean isString(final int column)
    {
        return strings[column] != null;
    }

    int columns()
    {
        return longs.length;
    }
}
