package dev.weir.csv;

import dev.weir.journal.ColumnType;
import dev.weir.journal.EventJournal;
import dev.weir.journal.FieldParser;
import dev.weir.journal.JournalSchema;
import dev.weir.journal.KeyFormat;
import dev.weir.journal.StringFormat;

/**
 * One line of an events CSV in a journal's {@link JournalSchema} ({@code event_id,event_time,} then one
 * field per column), parsed and validated into this reusable row.
 * <p>
 * {@link #parse(String)} returns null when the line is a valid event, whose fields are then readable by
 * column index, or the reason it is not. In {@link JournalSchema#DEFAULT} the line is read exactly as
 * {@link EventLine} reads it, with the same reasons. In any other schema:
 * <ul>
 *   <li>the fields are split as RFC 4180 quotes them ({@link CsvFields}), taken as they are, without trimming;</li>
 *   <li>{@code event_id} and {@code event_time} follow {@link EventLine}'s rules and reasons;</li>
 *   <li>each named column is read by {@link FieldParser}, which has these rules:</li>
 *   <li>a {@link ColumnType#LONG} column is a 64-bit integer ({@code bad long in column NAME: TEXT});</li>
 *   <li>a {@link ColumnType#DECIMAL} column of scale N is an optional {@code -}, digits, and an optional
 *   {@code .} followed by 1 to N digits; fewer than N are padded with zeros, and a value whose unscaled
 *   long overflows is refused ({@code bad decimal in column NAME: TEXT (scale N)});</li>
 *   <li>a {@link ColumnType#STRING} column is 1 to {@value JournalSchema#MAX_STRING_BYTES} bytes of UTF-8
 *   without a line break, as {@link StringFormat} has it ({@code empty string in column NAME}, {@code string over 256 bytes in column NAME},
 *   {@code line break in column NAME}).</li>
 * </ul>
 * In a journal created with the default columns that gained columns, the {@code key} column keeps the rule of
 * {@link KeyFormat}, with {@link EventLine}'s reason ({@link #ColumnsLine(JournalSchema, boolean)}).
 * A reason quotes a bad field up to {@value EventLine#SHOWN_CHARS} characters. Parsing a valid line
 * allocates only the text of its string columns. Not thread-safe.
 */
final class ColumnsLine
{
    private final JournalSchema schema;
    private final EventLine defaultLine;
    private final boolean keyRule;
    private final CsvFields fields = new CsvFields();
    private final FieldParser parser;
    private final String[] names;
    private final ColumnType[] types;
    private final int[] scales;
    private final long[] longs;
    private final String[] strings;
    private long eventId;
    private long eventTime;

    /**
     * @param schema the columns of the lines.
     */
    ColumnsLine(final JournalSchema schema)
    {
        this(schema, false);
    }

    /**
     * @param schema  the columns of the lines.
     * @param keyRule the first column is the {@code key} of a journal created with the default columns, which
     *                keeps the rule of {@link KeyFormat} once the journal gained columns.
     */
    ColumnsLine(final JournalSchema schema, final boolean keyRule)
    {
        this.schema = schema;
        this.keyRule = keyRule;
        this.defaultLine = schema.isDefault() ? new EventLine() : null;
        this.parser = new FieldParser(schema);
        final int n = schema.size();
        this.names = new String[n + 2];
        this.types = new ColumnType[n];
        this.scales = new int[n];
        this.longs = new long[n];
        this.strings = new String[n];
        names[0] = "event_id";
        names[1] = "event_time";
        for (int i = 0; i < n; i++)
        {
            final JournalSchema.Column c = schema.column(i);
            names[i + 2] = c.name();
            types[i] = c.type();
            scales[i] = c.scale();
        }
    }

    /** @return the schema the lines are read in. */
    JournalSchema schema()
    {
        return schema;
    }

    /**
     * @param line a line without its line terminator.
     * @return null if valid (the row is then readable), else the reason.
     */
    String parse(final String line)
    {
        if (defaultLine != null)
        {
            final String why = defaultLine.parse(line);
            if (why == null)
            {
                eventId = defaultLine.eventId();
                eventTime = defaultLine.eventTime();
                strings[0] = defaultLine.key();
                longs[1] = defaultLine.value();
            }
            return why;
        }
        if (line.isBlank())
        {
            return "empty line";
        }
        final String split = fields.split(line, names);
        if (split != null)
        {
            return split;
        }
        if (fields.count() != names.length)
        {
            return "expected " + names.length + " fields, got " + fields.count();
        }
        try
        {
            eventId = Long.parseLong(line, fields.start(0), fields.end(0), 10);
        }
        catch (final NumberFormatException ex)
        {
            return "event_id is not a 64-bit integer: '" + shown(fields.text(0)) + "'";
        }
        try
        {
            eventTime = Long.parseLong(line, fields.start(1), fields.end(1), 10);
        }
        catch (final NumberFormatException ex)
        {
            return "event_time is not a 64-bit integer: '" + shown(fields.text(1)) + "'";
        }
        if (eventTime < 0)
        {
            return "event_time is negative: " + eventTime;
        }
        if (eventTime > EventJournal.MAX_EVENT_TIME)
        {
            return "event_time is later than " + EventJournal.MAX_EVENT_TIME + ": " + eventTime;
        }
        for (int i = 0; i < types.length; i++)
        {
            final String why = parseColumn(line, i, i + 2);
            if (why != null)
            {
                return why;
            }
        }
        return null;
    }

    private String parseColumn(final String line, final int column, final int field)
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
        final String text = fields.isEmpty(field) ? "" : fields.text(field);
        final String why = parser.checkString(column, text);
        if (why == null && keyRule && column == 0)
        {
            final String notKey = KeyFormat.whyInvalid(text);
            if (notKey != null)
            {
                return notKey + ": '" + shown(text) + "'";
            }
        }
        if (why == null)
        {
            strings[column] = text;
        }
        return why;
    }

    /** @return how many fields the last line parsed has, if its columns are not the default ones (0 if it is empty). */
    int fieldCount()
    {
        return fields.count();
    }

    /** @return how many named columns a line has. */
    int columns()
    {
        return types.length;
    }

    /**
     * @param column a column index.
     * @return true if it is a {@link ColumnType#STRING} column.
     */
    boolean isString(final int column)
    {
        return types[column] == ColumnType.STRING;
    }

    /** @return the event id of the last valid line. */
    long eventId()
    {
        return eventId;
    }

    /** @return the event time of the last valid line. */
    long eventTime()
    {
        return eventTime;
    }

    /**
     * @param column the index of a {@link ColumnType#LONG} or {@link ColumnType#DECIMAL} column.
     * @return its value in the last valid line (a decimal's unscaled long).
     */
    long longColumn(final int column)
    {
        assert types[column] != ColumnType.STRING : schema.column(column);
        return longs[column];
    }

    /**
     * @param column the index of a {@link ColumnType#STRING} column.
     * @return its text in the last valid line.
     */
    String string(final int column)
    {
        assert types[column] == ColumnType.STRING : schema.column(column);
        return strings[column];
    }

    private static String shown(final String field)
    {
        return FieldParser.shown(field);
    }
}
