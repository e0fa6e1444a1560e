package dev.weir.journal.codec;

import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.JournalSchema;

/**
 * Where each column of a {@link JournalSchema} lies in the fixed part of an event document, computed once
 * per schema: after the type byte, {@code event_id} (1) and {@code event_time} (9), every
 * {@link ColumnType#LONG} and {@link ColumnType#DECIMAL} column as a long from offset 17, in schema order,
 * then every {@link ColumnType#STRING} column's id as an int, in schema order. For {@link #DEFAULT} that is
 * the layout events had before schemas: {@code value} at 17, {@code key_id} at 25, 29 bytes.
 * <p>
 * That is the layout of the columns of generation 1 (those the journal was created with). A journal that
 * gained columns ({@link JournalSchema#extend}) writes documents of its latest generation G
 * ({@link DocumentType#EVENT_EXTENDED}): the generation-1 part as above, then the generation (a byte) and
 * the fixed part's length (an unsigned short) at {@link #baseLength()}, then every added column in column
 * order (a long or decimal as 8 bytes, a string id as 4), from {@link #baseLength()} + 3. An added column lies
 * at the same offset in every generation's documents that have it; a document of an earlier generation lacks it
 * and reads its {@link #defaultOf default} ({@link EventEncoder} has the whole layout).
 * <p>
 * Immutable and thread-safe.
 */
public final class EventShape
{
    /** The offset of the first column. */
    static final int COLUMNS_START = 17;
    /** The bytes between the generation-1 part and the added columns: the generation and the fixed length. */
    static final int EXTENSION_HEADER = 3;

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
    /** The length of the generation-1 part: the whole fixed part of a generation-1 document. */
    private final int baseLength;
    /** The index of the first added column: the number of generation-1 columns. */
    private final int firstAdded;
    private final int generation;
    private final int[] generations;
    /** Per generation g (index g), the fixed length of its documents; index 0 unused. */
    private final int[] lengths;
    /** Per column, what a document without it reads: a long or decimal default, or a string default's id (0). */
    private final long[] defaults;
    private final boolean originalIsDefault;

    private EventShape(final JournalSchema schema)
    {
        this.schema = schema;
        this.isDefault = schema.isDefault();
        this.originalIsDefault = schema.original().isDefault();
        final int n = schema.size();
        isString = new boolean[n];
        offsets = new int[n];
        generations = new int[n];
        defaults = new long[n];
        int added = n;
        int strings = 0;
        int offset = COLUMNS_START;
        int firstLong = -1;
        for (int c = 0; c < n; c++)
        {
            generations[c] = schema.generationOf(c);
            added = generations[c] > 1 ? Math.min(added, c) : added;
            isString[c] = schema.column(c).type() == ColumnType.STRING;
            if (isString[c])
            {
                strings++;
            }
            else
            {
                defaults[c] = generations[c] > 1 ? schema.column(c).defaultLong() : 0;
            }
        }
        this.firstAdded = added;
        for (int c = 0; c < firstAdded; c++)
        {
            if (!isString[c])
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
                offsets[c] = c < firstAdded ? offset : 0;
                offset += c < firstAdded ? 4 : 0;
                stringColumns[s++] = c;
            }
        }
        this.baseLength = offset;
        this.generation = schema.generation();
        this.lengths = new int[generation + 1];
        lengths[1] = baseLength;
        offset = baseLength + EXTENSION_HEADER;
        for (int c = firstAdded; c < n; c++)
        {
            offsets[c] = offset;
            offset += isString[c] ? 4 : 8;
            lengths[generations[c]] = offset;
        }
        this.length = lengths[generation];
        this.firstStringColumn = strings > 0 && stringColumns[0] < firstAdded ? stringColumns[0] : -1;
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

    /**
     * @return the length in bytes of the fixed part of the events this shape writes: 17 + 8 per long or decimal
     *         column + 4 per string column, and 3 more if the journal gained columns.
     */
    public int length()
    {
        return length;
    }

    /** @return the length of the generation-1 part: the fixed part of a document of generation 1. */
    public int baseLength()
    {
        return baseLength;
    }

    /**
     * @param generation a generation from 1 to {@link #generation()}.
     * @return the fixed length of its documents.
     */
    public int length(final int generation)
    {
        return lengths[generation];
    }

    /** @return the latest generation: that of the events this shape writes. */
    public int generation()
    {
        return generation;
    }

    /** @return the index of the first added column: the number of columns the journal was created with. */
    public int firstAdded()
    {
        return firstAdded;
    }

    /**
     * @param column a column index.
     * @return the generation that added it (1 for those the journal was created with).
     */
    public int generationOf(final int column)
    {
        return generations[column];
    }

    /**
     * @param column a column index.
     * @return what a document without the column reads: a long or decimal column's default (a decimal's unscaled
     *         long), or the id of a string column's default, 0 (each added string column's dictionary starts with it).
     */
    public long defaultOf(final int column)
    {
        return defaults[column];
    }

    /**
     * @return true if the journal was created with the default schema, whether or not it gained columns since:
     *         its generation-1 part is the default layout ({@code value} at 17, {@code key_id} at 25).
     */
    public boolean originalIsDefault()
    {
        return originalIsDefault;
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

    /**
     * @return the index of the first string column the journal was created with, or -1 if there is none (the key
     *         of {@link EventConsumer}; an added column never becomes it).
     */
    public int firstStringColumn()
    {
        return firstStringColumn;
    }

    /**
     * @return the index of the first long or decimal column the journal was created with, or -1 if there is none
     *         (the value of {@link EventConsumer}; an added column never becomes it).
     */
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
