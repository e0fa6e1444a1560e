package dev.weir.kafka;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.weir.journal.files.BinaryFields;
import dev.weir.journal.schema.TableDefinition;

/**
 * What a partition's checkpoint holds of its reference tables, so that the partition's next owner joins every event
 * after the checkpoint to the same row: the tables' definitions, the rows the checkpoint's state had read (each a
 * record value, a table CSV line, see {@link TableRecords}; of the rows of one table, key and valid-from time only
 * the last, in the order they were read), and the greatest event or heartbeat time it had read (the joins'
 * horizon counts from it).
 * <p>
 * Layout inside a {@link PartitionCheckpoint} of version 4 (big-endian): int32 tables, per table its definition
 * ({@link TableDefinition#text()}: int32 length + UTF-8); int64 the greatest time read ({@link Long#MIN_VALUE} if
 * none); int32 rows, per row int32 its table's index among the definitions, int32 length + the line's UTF-8 bytes.
 * <p>
 * Immutable; thread-safe.
 *
 * @param definitions the tables' definitions, in the order the instance declared them; empty for none.
 * @param maxTime     the greatest event or heartbeat time the state had read, or {@link Long#MIN_VALUE}.
 * @param tables      per row, its table's index among the definitions.
 * @param lines       per row, its record value.
 */
record PartitionTables(List<TableDefinition> definitions, long maxTime, int[] tables, List<byte[]> lines)
{
    /** A partition without reference tables. */
    static final PartitionTables NONE = new PartitionTables(List.of(), Long.MIN_VALUE, new int[0], List.of());

    /** The greatest line held (a record's value is at most 64 KiB). */
    private static final int MAX_LINE = 1 << 16;

    PartitionTables
    {
        definitions = List.copyOf(definitions);
        lines = List.copyOf(lines);
        if (tables.length != lines.size())
        {
            throw new IllegalArgumentException(tables.length + " table indexes for " + lines.size() + " rows");
        }
    }

    /** @return true if the partition has no reference table. */
    boolean isEmpty()
    {
        return definitions.isEmpty();
    }

    /** @return the number of rows held. */
    int rows()
    {
        return lines.size();
    }

    void write(final DataOutputStream out) throws IOException
    {
        out.writeInt(definitions.size());
        for (final TableDefinition definition : definitions)
        {
            BinaryFields.writeText(out, definition.text());
        }
        out.writeLong(maxTime);
        out.writeInt(lines.size());
        for (int r = 0; r < lines.size(); r++)
        {
            out.writeInt(tables[r]);
            out.writeInt(lines.get(r).length);
            out.write(lines.get(r));
        }
    }

    static PartitionTables read(final DataInputStream in) throws IOException
    {
        final int count = BinaryFields.count(in, TableDefinition.MAX_TABLES);
        final List<TableDefinition> definitions = new ArrayList<>(count);
        for (int t = 0; t < count; t++)
        {
            try
            {
                definitions.add(TableDefinition.fromText(BinaryFields.readText(in)));
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IOException("a table definition that does not read: " + ex.getMessage(), ex);
            }
        }
        final long maxTime = in.readLong();
        final int rows = BinaryFields.count(in, in.available() / 8);
        final int[] tables = new int[rows];
        final List<byte[]> lines = new ArrayList<>(rows);
        for (int r = 0; r < rows; r++)
        {
            tables[r] = in.readInt();
            if (tables[r] < 0 || tables[r] >= count)
            {
                throw new IOException("a row of table " + tables[r] + " of " + count);
            }
            final byte[] line = new byte[BinaryFields.count(in, Math.min(MAX_LINE, in.available()))];
            in.readFully(line);
            lines.add(line);
        }
        return new PartitionTables(definitions, maxTime, tables, lines);
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof PartitionTables that && definitions.toString().equals(that.definitions.toString())
            && maxTime == that.maxTime && Arrays.equals(tables, that.tables)
            && Arrays.deepEquals(lines.toArray(), that.lines.toArray());
    }

    @Override
    public int hashCode()
    {
        return Long.hashCode(maxTime) * 31 + Arrays.hashCode(tables);
    }
}
