package dev.weir.engine.expr;

import java.util.Arrays;
import java.util.Objects;

import dev.weir.journal.schema.JournalSchema;

/**
 * The columns an expression may name: the event's (indices 0..n-1, their plain names), then each joined table's
 * columns in table order, named {@code TABLE.COLUMN}, indices continuing. An {@link dev.weir.journal.schema.EventView}
 * handed to an expression compiled over these columns answers {@code longColumn(i)} and {@code stringId(i)} for every
 * index.
 * <p>
 * Immutable; thread-safe.
 */
public final class ExpressionColumns
{
    private final String[] names;
    private final JournalSchema.Column[] columns;
    private final int eventColumns;

    private ExpressionColumns(final String[] names, final JournalSchema.Column[] columns, final int eventColumns)
    {
        this.names = names;
        this.columns = columns;
        this.eventColumns = eventColumns;
    }

    /**
     * @param events the events' schema.
     * @return the event's columns, no table.
     */
    public static ExpressionColumns of(final JournalSchema events)
    {
        Objects.requireNonNull(events, "events");
        final int n = events.size();
        final String[] names = new String[n];
        final JournalSchema.Column[] columns = new JournalSchema.Column[n];
        for (int i = 0; i < n; i++)
        {
            columns[i] = events.column(i);
            names[i] = columns[i].name();
        }
        return new ExpressionColumns(names, columns, n);
    }

    /**
     * @param table        the table's name.
     * @param tableColumns the table's columns (key columns included, in declared order).
     * @return a new instance with the table's columns appended, named {@code table.COLUMN}.
     * @throws IllegalArgumentException if the table was already joined.
     */
    public ExpressionColumns join(final String table, final JournalSchema tableColumns)
    {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(tableColumns, "tableColumns");
        final int n = tableColumns.size();
        final String[] joinedNames = Arrays.copyOf(names, names.length + n);
        final JournalSchema.Column[] joinedColumns = Arrays.copyOf(columns, columns.length + n);
        for (int i = 0; i < n; i++)
        {
            final JournalSchema.Column column = tableColumns.column(i);
            final String name = table + "." + column.name();
            if (indexOf(name) >= 0)
            {
                throw new IllegalArgumentException("table " + table + " is joined twice");
            }
            joinedNames[names.length + i] = name;
            joinedColumns[names.length + i] = column;
        }
        return new ExpressionColumns(joinedNames, joinedColumns, eventColumns);
    }

    /** @return how many columns: the event's, then the tables'. */
    public int size()
    {
        return names.length;
    }

    /**
     * @param name a column's plain name (an event column) or {@code TABLE.COLUMN}.
     * @return its index, or -1 if none.
     */
    public int indexOf(final String name)
    {
        for (int i = 0; i < names.length; i++)
        {
            if (names[i].equals(name))
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * @param index 0 .. {@link #size()} - 1.
     * @return its name as an expression writes it ({@code TABLE.COLUMN} for a table's).
     */
    public String name(final int index)
    {
        return names[index];
    }

    /**
     * @param index 0 .. {@link #size()} - 1.
     * @return its type, scale and default (the column's own, unqualified name).
     */
    public JournalSchema.Column column(final int index)
    {
        return columns[index];
    }

    /** @return how many of the columns are the event's (indices 0 .. that - 1). */
    public int eventColumns()
    {
        return eventColumns;
    }

    @Override
    public String toString()
    {
        return String.join(",", names);
    }
}
