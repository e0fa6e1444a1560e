package dev.weir.journal;

/**
 * Where each column of a {@link JournalSchema} lies in the fixed part of an event document, computed once
 * per schema: after the type byte, {@code event_id} (1) and {@code event_time} (9), every
 * {@link ColumnType#LONG} and {@link ColumnType#DECIMAL} column as a long from offset 17, in schema order,
 * then every {@link ColumnType#STRING} column's id as an int, in schema order. For {@link #DEFAULT} that is
 * the layout events had before schemas: {@code value} at 17, {@code key_id} at 25, 29 bytes.
 * <p>
 * Immutable and thread-safe.
 */
public final class EventShape
{
    /** The offset of the first column. */
    static final int COLUMNS_START = 17;

    /** The shape of {@link JournalSchema#DEFAULT}. */
    public static final EventShape DEFAULT = new EventShape(JournalSchema.DEFAULT);

    private final JournalSchema schema;
    private final boolean isDefault;
    private final boolean[] isString;
    private final int[] offsets;
    private final int[] stringColumns;
    private final int length;
    private final int firstStringColumn;
    private final int firstLongColumn;

    private EventShape(final JournalSchema schema)
    {
        this.schema = schema;
        this.isDefault = schema.isDefault();
        final int n = schema.size();
        isString = new boolean[n];
        offsets = new int[n];
        int strings = 0;
        int offset = COLUMNS_START;
        int firstLong = -1;
        for (int c = 0; c < n; c++)
        {
            isString[c] = schema.column(c).type() == ColumnType.STRING;
            if (isString[c])
            {
                strings++;
            }
            else
            {
                offsets[c] = offset;
                offset += 8;
                firstLong = firstLong < 0 ? c : firstLong;
            }
        }
        stringColumns = new int[strings];
        int s = 0;
        for (int c = 0; c < n; c++)
        {
            if (isString[c])
            {
                offsets[c] = offset;
                offset += 4;
                stringColumns[s++] = c;
            }
        }
        this.length = offset;
        this.firstStringColumn = strings > 0 ? stringColumns[0] : -1;
        this.firstLongColumn = firstLong;
    }

    /**
     * @param schema a journal's schema.
     * @return its shape ({@link #DEFAULT} for the default schema).
     */
    public static EventShape of(final JournalSchema schema)
    {
        return schema.isDefault() ? DEFAULT : new EventShape(schema);
    }

    /** @return the schema. */
    public JournalSchema schema()
    {
        return schema;
    }

    /** @return true for the default schema's shape, the layout of events before schemas. */
    public boolean isDefault()
    {
        return isDefault;
    }

    /** @return the length in bytes of an event's fixed part: 17 + 8 per long or decimal column + 4 per string column. */
    public int length()
    {
        return length;
    }

    /** @return how many named columns there are. */
    public int columns()
    {
        return offsets.length;
    }

    /**
     * @param column a column index.
     * @return the offset of its value in an event document.
     */
    public int offset(final int column)
    {
        return offsets[column];
    }

    /**
     * @param column a column index.
     * @return true if it is a {@link ColumnType#STRING} column (an int id), false for a long or decimal.
     */
    public boolean isString(final int column)
    {
        return isString[column];
    }

    /** @return how many string columns there are. */
    public int stringColumns()
    {
        return stringColumns.length;
    }

    /**
     * @param i 0 for the first string column, in schema order.
     * @return the column index of the {@code i}-th string column.
     */
    public int stringColumn(final int i)
    {
        return stringColumns[i];
    }

    /** @return the index of the first string column, or -1 if there is none (the key of {@link EventConsumer}). */
    public int firstStringColumn()
    {
        return firstStringColumn;
    }

    /** @return the index of the first long or decimal column, or -1 if there is none (the value of {@link EventConsumer}). */
    public int firstLongColumn()
    {
        return firstLongColumn;
    }

    @Override
    public String toString()
    {
        return schema + " (" + length + " bytes)";
    }
}
