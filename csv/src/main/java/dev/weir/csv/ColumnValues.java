package dev.weir.csv;

import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.FieldParser;
import dev.weir.journal.schema.JournalSchema;

/**
 * The values of a CSV line's named columns, each read from its field by {@link FieldParser}'s rules and reasons: a
 * {@link ColumnType#LONG} or {@link ColumnType#DECIMAL} column's long (a decimal's unscaled), a
 * {@link ColumnType#STRING} column's text. Reading a number allocates nothing.
 * <p>
 * Not thread-safe: reusable, holding the last values read; one owner thread.
 */
final class ColumnValues
{
    private final FieldParser parser;
    private final ColumnType[] types;
    private final long[] longs;
    private final String[] strings;

    /**
     * @param schema the columns.
     */
    ColumnValues(final JournalSchema schema)
    {
        final int n = schema.size();
        this.parser = new FieldParser(schema);
        this.types = new ColumnType[n];
        this.longs = new long[n];
        this.strings = new String[n];
        for (int i = 0; i < n; i++)
        {
            types[i] = schema.column(i).type();
        }
    }

    /**
     * Read a column's value from its field.
     *
     * @param line   the line.
     * @param fields the line's fields, split.
     * @param column the column's index.
     * @param field  its field's index.
     * @return null if valid (its value is then held), else the reason.
     */
    String read(final String line, final CsvFields fields, final int column, final int field)
    {
        if (types[column] != ColumnType.STRING)
        {
            if (!parser.parseNumber(column, line, fields.start(field), fields.end(field)))
            {
                return parser.whyNotNumber(column, fields.text(field));
            }
            longs[column] = parser.number();
            return null;
        }
        final String value = fields.isEmpty(field) ? "" : fields.text(field);
        final String why = parser.checkString(column, value);
        if (why == null)
        {
            strings[column] = value;
        }
        return why;
    }

    /** @return the number of columns. */
    int size()
    {
        return types.length;
    }

    /**
     * @param column a column's index.
     * @return true if it is a {@link ColumnType#STRING} column.
     */
    boolean isString(final int column)
    {
        return types[column] == ColumnType.STRING;
    }

    /**
     * @param column a number column's index.
     * @return its value held.
     */
    long longValue(final int column)
    {
        return longs[column];
    }

    /**
     * @param column a string column's index.
     * @return its text held.
     */
    String string(final int column)
    {
        return strings[column];
    }

    /**
     * @param column a number column's index.
     * @param value  the value to hold.
     */
    void set(final int column, final long value)
    {
        longs[column] = value;
    }

    /**
     * @param column a string column's index.
     * @param value  the text to hold.
     */
    void set(final int column, final String value)
    {
        strings[column] = value;
    }
}
