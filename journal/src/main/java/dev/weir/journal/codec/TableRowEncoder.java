package dev.weir.journal.codec;

import net.openhft.chronicle.bytes.Bytes;

import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;

/**
 * Writes one table row document ({@link DocumentType#TABLE_ROW}) of one table in place: {@link #wrap} reserves the
 * fixed part at the write position, {@link #longColumn} fills it in any order, then the trailers follow in this
 * order: every string column's text ({@link #text}, in column order), then {@link #line}.
 * <pre>
 *   0  byte  type        {@link DocumentType#TABLE_ROW}
 *   1  byte  table       the table's index in the journal's marker (0 to {@link TableDefinition#MAX_TABLES} - 1)
 *   2  byte  flags       bit 0: tombstone (the key is removed from valid-from on)
 *   3  long  valid_from  epoch ms, &gt;= 0
 *  11  long  ...         every long and decimal column, in the table's column order (a decimal as its unscaled long;
 *                        0 in a tombstone's non-key columns)
 *      (length of the fixed part: {@link #length(JournalSchema)})
 *   .  utf8  ...         every string column's text, in column order ("" in a tombstone's non-key columns)
 *  ..  stop  line        optional: the input line the row came from, when an ingest appended it
 * </pre>
 * Little-endian, as every document. Allocates nothing (a string is encoded from its {@link CharSequence}). A
 * reusable flyweight of one table; not thread-safe: one owner thread.
 */
public final class TableRowEncoder
{
    /** Offset of the table's index from the type byte. */
    static final int TABLE = 1;
    /** Offset of the flags. */
    static final int FLAGS = 2;
    /** Offset of the valid-from time. */
    static final int VALID_FROM = 3;
    /** Offset of the first long column. */
    static final int LONGS = 11;
    /** The flag of a tombstone. */
    static final int TOMBSTONE = 1;

    private final int table;
    private final int length;
    private final int[] offsets;
    private Bytes<?> out;
    private long start;

    /**
     * @param table      the table's index.
     * @param definition the table's definition.
     */
    public TableRowEncoder(final int table, final TableDefinition definition)
    {
        if (table < 0 || table >= TableDefinition.MAX_TABLES)
        {
            throw new IllegalArgumentException("table index must be 0 to " + (TableDefinition.MAX_TABLES - 1) + ": " + table);
        }
        this.table = table;
        this.offsets = offsets(definition.columns());
        this.length = length(definition.columns());
    }

    /**
     * @param columns a table's columns.
     * @return per column, the offset of a long or decimal column's value from the type byte, -1 for a string column.
     */
    static int[] offsets(final JournalSchema columns)
    {
        final int[] offsets = new int[columns.size()];
        int at = LONGS;
        for (int c = 0; c < offsets.length; c++)
        {
            if (columns.column(c).type() == ColumnType.STRING)
            {
                offsets[c] = -1;
            }
            else
            {
                offsets[c] = at;
                at += Long.BYTES;
            }
        }
        return offsets;
    }

    /**
     * @param columns a table's columns.
     * @return the length of the fixed part of its rows.
     */
    public static int length(final JournalSchema columns)
    {
        int length = LONGS;
        for (final JournalSchema.Column column : columns.columns())
        {
            length += column.type() == ColumnType.STRING ? 0 : Long.BYTES;
        }
        return length;
    }

    /**
     * Start a row at the write position of {@code out}.
     *
     * @param out       where to write.
     * @param tombstone true for a tombstone.
     * @param validFrom the time it is valid from, epoch ms.
     * @return this.
     */
    public TableRowEncoder wrap(final Bytes<?> out, final boolean tombstone, final long validFrom)
    {
        this.out = out;
        this.start = out.writePosition();
        out.writeSkip(length);
        out.writeByte(start, DocumentType.TABLE_ROW);
        out.writeByte(start + TABLE, (byte)table);
        out.writeByte(start + FLAGS, (byte)(tombstone ? TOMBSTONE : 0));
        out.writeLong(start + VALID_FROM, validFrom);
        return this;
    }

    /**
     * @param column the index of a long or decimal column.
     * @param value  its value (a decimal's unscaled long).
     * @return this.
     */
    public TableRowEncoder longColumn(final int column, final long value)
    {
        assert offsets[column] >= 0 : "column " + column + " is a string column";
        out.writeLong(start + offsets[column], value);
        return this;
    }

    /**
     * Append a string column's text: once for each string column, in column order, after the fixed part is filled.
     *
     * @param text the text.
     * @return this.
     */
    public TableRowEncoder text(final CharSequence text)
    {
        out.writeUtf8(text);
        return this;
    }

    /**
     * After the texts: tag the row with the input line it came from.
     *
     * @param line the line number, &gt;= 0.
     * @return this.
     */
    public TableRowEncoder line(final long line)
    {
        out.writeStopBit(line);
        return this;
    }
}
