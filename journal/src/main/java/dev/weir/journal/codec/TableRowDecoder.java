package dev.weir.journal.codec;

import java.util.List;

import net.openhft.chronicle.bytes.BytesIn;

import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;
import dev.weir.journal.schema.TableRowView;

/**
 * Reads one table row document (layout: {@link TableRowEncoder}) of any table of a journal, in place:
 * {@link #wrap} reads its fixed part's header and decodes its strings into reused per-column builders; the read
 * position is left where it was. Allocates nothing after construction. A reusable flyweight, valid while the
 * document is; not thread-safe: one owner thread.
 */
public final class TableRowDecoder implements TableRowView
{
    private final List<TableDefinition> tables;
    /** Per table, per column: the offset of a long column, -1 for a string column. */
    private final int[][] offsets;
    private final int[] lengths;
    /** Per table, per column: the reused text of a string column, null for the others. */
    private final StringBuilder[][] texts;
    private BytesIn<?> in;
    private long start;
    private int table;
    private boolean tombstone;
    private long validFrom;
    private long line;

    /**
     * @param tables the journal's tables, in marker order.
     */
    public TableRowDecoder(final List<TableDefinition> tables)
    {
        this.tables = List.copyOf(tables);
        this.offsets = new int[tables.size()][];
        this.lengths = new int[tables.size()];
        this.texts = new StringBuilder[tables.size()][];
        for (int t = 0; t < tables.size(); t++)
        {
            final JournalSchema columns = tables.get(t).columns();
            offsets[t] = TableRowEncoder.offsets(columns);
            lengths[t] = TableRowEncoder.length(columns);
            texts[t] = new StringBuilder[columns.size()];
            for (int c = 0; c < columns.size(); c++)
            {
                if (columns.column(c).type() == ColumnType.STRING)
                {
                    texts[t][c] = new StringBuilder(JournalSchema.MAX_STRING_BYTES);
                }
            }
        }
    }

    /** @return the tables it reads. */
    public List<TableDefinition> tables()
    {
        return tables;
    }

    /**
     * @param in a document, at its read position.
     * @return the table index of a table row (not checked against the tables known), or -1 if it is not one.
     */
    public static int tableOf(final BytesIn<?> in)
    {
        return in.readRemaining() < TableRowEncoder.LONGS || in.peekUnsignedByte() != DocumentType.TABLE_ROW
            ? -1
            : in.readUnsignedByte(in.readPosition() + TableRowEncoder.TABLE);
    }

    /**
     * @param in a document, at its read position.
     * @return the line number an ingested table row carries, or -1 if it carries none or is not a table row of a
     *         known table.
     */
    public long lineOf(final BytesIn<?> in)
    {
        return wrap(in) ? line : -1;
    }

    /**
     * @param in a document, at its read position.
     * @return true if it is a table row of a table this knows, now read; false if it is not a table row.
     * @throws IllegalStateException if it is a table row of a table this does not know (the journal's marker gained a
     *                               table since the tables were read: read them again), or is cut short.
     */
    public boolean wrap(final BytesIn<?> in)
    {
        final int t = tableOf(in);
        if (t < 0)
        {
            return false;
        }
        if (t >= tables.size())
        {
            throw new IllegalStateException("a table row of table " + t + " where " + tables.size() + " tables are known");
        }
        final long at = in.readPosition();
        if (in.readRemaining() < lengths[t])
        {
            throw new IllegalStateException("a corrupt table row of table " + tables.get(t).name() + " (" + in.readRemaining()
                + " bytes, its fixed part has " + lengths[t] + ")");
        }
        this.in = in;
        this.start = at;
        this.table = t;
        this.tombstone = (in.readUnsignedByte(at + TableRowEncoder.FLAGS) & TableRowEncoder.TOMBSTONE) != 0;
        this.validFrom = in.readLong(at + TableRowEncoder.VALID_FROM);
        try
        {
            in.readPosition(at + lengths[t]);
            final StringBuilder[] strings = texts[t];
            for (final StringBuilder text : strings)
            {
                if (text != null)
                {
                    text.setLength(0);
                    in.readUtf8(text);
                }
            }
            line = in.readRemaining() > 0 ? in.readStopBit() : -1;
        }
        finally
        {
            in.readPosition(at);
        }
        return true;
    }

    @Override
    public int table()
    {
        return table;
    }

    @Override
    public long validFrom()
    {
        return validFrom;
    }

    @Override
    public boolean tombstone()
    {
        return tombstone;
    }

    @Override
    public long longColumn(final int column)
    {
        final int offset = offsets[table][column];
        if (offset < 0)
        {
            throw new IllegalArgumentException("column " + column + " of table " + tables.get(table).name() + " is a string column");
        }
        return in.readLong(start + offset);
    }

    @Override
    public CharSequence string(final int column)
    {
        final StringBuilder text = texts[table][column];
        if (text == null)
        {
            throw new IllegalArgumentException("column " + column + " of table " + tables.get(table).name() + " is not a string column");
        }
        return text;
    }

    /** @return the input line the row came from, or -1 if it was not ingested. */
    public long line()
    {
        return line;
    }
}
