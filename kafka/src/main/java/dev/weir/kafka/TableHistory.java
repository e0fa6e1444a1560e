package dev.weir.kafka;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

import dev.weir.csv.TableCsvParser;
import dev.weir.journal.EventJournal;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.TableDefinition;

/**
 * A partition's reference-table rows, as its records bring them: each is checked and appended to the partition's
 * journal ({@link #mirror}), and held with its Kafka offset so that a checkpoint can carry the rows its state had
 * read ({@link #through}). Of the rows of one table, key and valid-from time only the last one a checkpoint covers is
 * held once that checkpoint is taken (it is the one a join takes): so the rows held grow with the tables' versions,
 * not with the partition.
 * <p>
 * A new owner appends the rows of the partition's checkpoint to its new journal before any event
 * ({@link #restore}): every event after the checkpoint then joins the rows it joined before.
 * <p>
 * Not thread-safe: the instance's Kafka thread owns it.
 */
final class TableHistory
{
    /** A row held: the Kafka offset of its record (-1 for a checkpoint's), its table, its identity, its record value. */
    private record Held(long kafkaOffset, int table, String identity, byte[] line)
    {
    }

    private final List<TableDefinition> definitions;
    private final TableCsvParser[] parsers;
    private List<Held> held = new ArrayList<>();
    private final StringBuilder identity = new StringBuilder();
    private String rejection;

    /**
     * @param definitions the instance's tables, in order.
     */
    TableHistory(final List<TableDefinition> definitions)
    {
        this.definitions = List.copyOf(definitions);
        this.parsers = new TableCsvParser[definitions.size()];
        for (int t = 0; t < parsers.length; t++)
        {
            parsers[t] = new TableCsvParser(definitions.get(t), true);
        }
    }

    /** @return the tables, in order. */
    List<TableDefinition> definitions()
    {
        return definitions;
    }

    /**
     * @param name a table's name.
     * @return its index among the definitions, or -1 if the instance has no such table.
     */
    int table(final String name)
    {
        for (int t = 0; t < definitions.size(); t++)
        {
            if (definitions.get(t).name().equals(name))
            {
                return t;
            }
        }
        return -1;
    }

    /**
     * Check a row's record value and append it to the journal.
     *
     * @param table       the row's table's index.
     * @param value       the record's value: a table CSV line with its {@code op} field.
     * @param kafkaOffset the record's offset.
     * @param journal     the partition's journal (the events before the row written to it).
     * @return the journal offset of the row, or -1 if it was refused ({@link #rejection()} says why).
     */
    long mirror(final int table, final byte[] value, final long kafkaOffset, final EventJournal journal)
    {
        final TableCsvParser parser = parsers[table];
        rejection = value == null ? "a null value" : parser.parse(value, 0, value.length);
        if (rejection != null)
        {
            rejection = "table " + definitions.get(table).name() + ": " + rejection;
            return -1;
        }
        final long offset = parser.appendRow(journal);
        held.add(new Held(kafkaOffset, table, identity(table, parser), value.clone()));
        return offset;
    }

    /** @return why the last {@link #mirror} refused its row. */
    String rejection()
    {
        return rejection;
    }

    /** The row's table, key and valid-from time, as one text: rows alike in it replace each other. */
    private String identity(final int table, final TableCsvParser parser)
    {
        identity.setLength(0);
        identity.append(table).append('\u0000').append(parser.validFrom());
        final TableDefinition definition = definitions.get(table);
        for (int k = 0; k < definition.keySize(); k++)
        {
            final int column = definition.keyColumn(k);
            identity.append('\u0000');
            if (definition.columns().column(column).type() == ColumnType.STRING)
            {
                identity.append(parser.string(column));
            }
            else
            {
                identity.append(parser.longColumn(column));
            }
        }
        return identity.toString();
    }

    /**
     * The rows a checkpoint covers, and from now on hold only the last of each identity among them.
     *
     * @param kafkaOffset the Kafka offset of the last record the checkpoint covers: the rows of records at or before it
     *                    are covered, those after it are re-read by a next owner.
     * @param maxTime     the greatest event or heartbeat time the checkpoint's state had read.
     * @return what the checkpoint carries.
     */
    PartitionTables through(final long kafkaOffset, final long maxTime)
    {
        final LinkedHashMap<String, Held> covered = new LinkedHashMap<>();
        final List<Held> after = new ArrayList<>();
        for (final Held row : held)
        {
            if (row.kafkaOffset() <= kafkaOffset)
            {
                covered.remove(row.identity()); // the last appended wins, in its place
                covered.put(row.identity(), row);
            }
            else
            {
                after.add(row);
            }
        }
        final List<Held> kept = new ArrayList<>(covered.values());
        final int[] tables = new int[kept.size()];
        final List<byte[]> lines = new ArrayList<>(kept.size());
        for (int r = 0; r < tables.length; r++)
        {
            tables[r] = kept.get(r).table();
            lines.add(kept.get(r).line());
        }
        kept.addAll(after);
        held = kept;
        return new PartitionTables(definitions, maxTime, tables, lines);
    }

    /**
     * Append a checkpoint's rows to a new journal, before any event, and hold them as covered by it.
     *
     * @param tables  the checkpoint's tables (of these definitions).
     * @param journal the partition's new journal.
     * @throws IllegalStateException if a row does not read (a checkpoint of other tables).
     */
    void restore(final PartitionTables tables, final EventJournal journal)
    {
        for (int r = 0; r < tables.rows(); r++)
        {
            final int table = table(tables.definitions().get(tables.tables()[r]).name());
            final byte[] line = tables.lines().get(r);
            if (mirror(table, line, -1, journal) < 0)
            {
                throw new IllegalStateException("a checkpoint's row [" + new String(line, StandardCharsets.UTF_8) + "] does not read: "
                    + rejection);
            }
        }
    }
}
