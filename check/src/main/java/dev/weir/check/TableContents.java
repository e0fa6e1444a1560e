package dev.weir.check;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.weir.journal.EventViewConsumer;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.schema.TableRowView;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.EventView;
import dev.weir.journal.schema.TableDefinition;

/**
 * What a reference table of a journal holds, as {@code weir inspect} shows it: its definition, its keys that have a
 * live row at the end of time (a key's row of the greatest valid-from time, the later appended of two of the same
 * time, is not a tombstone), its versions (every row appended, tombstones included) and its tombstones. Counted over
 * the rows the journal still holds (from its oldest offset on). Immutable.
 *
 * @param table      the table's definition.
 * @param keys       distinct keys with a live row at the end.
 * @param versions   rows appended, tombstones included.
 * @param tombstones of those, tombstones.
 */
public record TableContents(TableDefinition table, long keys, long versions, long tombstones)
{
    /**
     * Scan a journal's table rows: one pass over the journal (a map of each table's keys: about 100 bytes per key).
     * A journal without tables is not read.
     *
     * @param directory the journal.
     * @return one per table, in definition order.
     */
    public static List<TableContents> of(final JournalDirectory directory)
    {
        final List<TableDefinition> tables = directory.tables();
        if (tables.isEmpty())
        {
            return List.of();
        }
        final Tally tally = new Tally(tables);
        try (JournalReader reader = JournalReader.open(directory))
        {
            while (reader.poll(tally, 4096) > 0)
            {
                // to the end
            }
        }
        final List<TableContents> contents = new ArrayList<>();
        for (int t = 0; t < tables.size(); t++)
        {
            final long live = tally.latest.get(t).values().stream().filter(latest -> !latest.tombstone).count();
            contents.add(new TableContents(tables.get(t), live, tally.versions[t], tally.tombstones[t]));
        }
        return contents;
    }

    /** The latest row of a key: its valid-from time and whether it is a tombstone. */
    private static final class Latest
    {
        private long validFrom = Long.MIN_VALUE;
        private boolean tombstone;
    }

    /** Counts the table rows handed to it, on the reading thread. */
    private static final class Tally implements EventViewConsumer
    {
        private final List<TableDefinition> tables;
        private final List<Map<String, Latest>> latest = new ArrayList<>();
        private final long[] versions;
        private final long[] tombstones;
        private final StringBuilder key = new StringBuilder();

        Tally(final List<TableDefinition> tables)
        {
            this.tables = tables;
            this.versions = new long[tables.size()];
            this.tombstones = new long[tables.size()];
            tables.forEach(table -> latest.add(new HashMap<>()));
        }

        @Override
        public void onEvent(final long offset, final EventView event)
        {
        }

        @Override
        public void onTableRow(final long offset, final TableRowView row)
        {
            final int t = row.table();
            versions[t]++;
            if (row.tombstone())
            {
                tombstones[t]++;
            }
            final Latest now = latest.get(t).computeIfAbsent(key(tables.get(t), row), k -> new Latest());
            if (row.validFrom() >= now.validFrom) // the later appended of two rows of the same time wins
            {
                now.validFrom = row.validFrom();
                now.tombstone = row.tombstone();
            }
        }

        /** @return the row's key columns as one text, each column's value followed by a unit separator. */
        private String key(final TableDefinition table, final TableRowView row)
        {
            key.setLength(0);
            for (int k = 0; k < table.keySize(); k++)
            {
                final int column = table.keyColumn(k);
                if (table.columns().column(column).type() == ColumnType.STRING)
                {
                    key.append(row.string(column));
                }
                else
                {
                    key.append(row.longColumn(column));
                }
                key.append('\u001f');
            }
            return key.toString();
        }
    }
}
