package dev.weir.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.weir.journal.EventViewConsumer;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.EventView;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;
import dev.weir.journal.schema.TableRowView;

/**
 * The table rows of a journal as text, in journal order: {@code table|validFrom|upsert or delete|column|...} (no offset: a
 * killed append may leave a gap in the offsets), for comparing two journals row by row. Test-only.
 */
final class TableRowsText
{
    private TableRowsText()
    {
    }

    /**
     * @param journal a journal directory.
     * @return its table rows, one a line, in journal order.
     */
    static List<String> of(final Path journal)
    {
        final JournalDirectory directory = JournalDirectory.open(journal);
        final List<TableDefinition> tables = directory.tables();
        final List<String> rows = new ArrayList<>();
        final EventViewConsumer consumer = new EventViewConsumer()
        {
            @Override
            public void onEvent(final long offset, final EventView event)
            {
            }

            @Override
            public void onTableRow(final long offset, final TableRowView row)
            {
                final TableDefinition table = tables.get(row.table());
                final JournalSchema columns = table.columns();
                final StringBuilder b = new StringBuilder().append(table.name()).append('|').append(row.validFrom())
                    .append('|').append(row.tombstone() ? "delete" : "upsert");
                for (int c = 0; c < columns.size(); c++)
                {
                    b.append('|');
                    if (columns.column(c).type() == ColumnType.STRING)
                    {
                        b.append(row.string(c));
                    }
                    else
                    {
                        b.append(row.longColumn(c));
                    }
                }
                rows.add(b.toString());
            }
        };
        try (JournalReader reader = JournalReader.open(directory))
        {
            while (reader.poll(consumer, 1_024) > 0)
            {
                // until the end of the journal
            }
        }
        return rows;
    }
}
