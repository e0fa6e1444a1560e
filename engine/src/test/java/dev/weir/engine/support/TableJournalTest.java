package dev.weir.engine.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.weir.engine.model.AsOfJoinModel;
import dev.weir.engine.model.JoinCase;
import dev.weir.engine.model.JoinEvent;
import dev.weir.engine.model.JoinStreamGenerator;
import dev.weir.engine.model.JournalEntry;
import dev.weir.engine.model.ModelTable;
import dev.weir.engine.model.ModelTableRow;
import dev.weir.engine.model.WindowKind;
import dev.weir.journal.EventViewConsumer;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.schema.EventView;
import dev.weir.journal.schema.TableDefinition;
import dev.weir.journal.schema.TableRowView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journals the join model tests run on hold what the model reads: {@link TableJournal} writes a generated
 * case, and a {@link JournalReader} hands back, in order, each table row (its table, valid-from, tombstone and
 * key columns, and every column of an upsert), each event's time and each heartbeat.
 */
class TableJournalTest
{
    @TempDir
    Path dir;

    @Test
    void aWrittenCaseReadsBackEntryByEntry()
    {
        for (int seed = 0; seed < 12; seed++)
        {
            final JoinCase c = JoinStreamGenerator.generate(seed, WindowKind.values()[seed % 3]);
            final Path journal = dir.resolve("j" + seed);
            TableJournal.write(c, journal, JoinStreamGenerator.EVENT_COLUMNS);
            assertEquals(expected(c), read(journal), c::describe);
        }
    }

    private static List<String> expected(final JoinCase c)
    {
        final List<String> rows = new ArrayList<>();
        for (final JournalEntry e : c.journal())
        {
            if (e instanceof ModelTableRow row)
            {
                final ModelTable t = AsOfJoinModel.table(c.tables(), row.table());
                final StringBuilder b = new StringBuilder(row.table()).append('@').append(row.validFrom()).append(row.tombstone() ? " delete" : " upsert");
                for (final ModelTable.Column column : t.columns())
                {
                    b.append(',').append(row.tombstone() && !t.key().contains(column.name()) ? "-" : row.values().get(column.name()));
                }
                rows.add(b.toString());
            }
            else
            {
                final JoinEvent event = (JoinEvent)e;
                rows.add((event.isHeartbeat() ? "heartbeat " : "event ") + event.event().eventTime());
            }
        }
        return rows;
    }

    private static List<String> read(final Path journal)
    {
        final JournalDirectory directory = JournalDirectory.open(journal);
        final List<TableDefinition> tables = directory.tables();
        final List<String> rows = new ArrayList<>();
        final EventViewConsumer consumer = new EventViewConsumer()
        {
            @Override
            public void onEvent(final long offset, final EventView event)
            {
                rows.add("event " + event.eventTime());
            }

            @Override
            public void onHeartbeat(final long offset, final long eventTime)
            {
                rows.add("heartbeat " + eventTime);
            }

            @Override
            public void onTableRow(final long offset, final TableRowView row)
            {
                final TableDefinition t = tables.get(row.table());
                final StringBuilder b = new StringBuilder(t.name()).append('@').append(row.validFrom()).append(row.tombstone() ? " delete" : " upsert");
                for (int c = 0; c < t.columns().size(); c++)
                {
                    final boolean key = t.key().contains(t.columns().column(c).name());
                    b.append(',').append(row.tombstone() && !key ? "-"
                        : t.columns().column(c).type() == dev.weir.journal.schema.ColumnType.STRING ? row.string(c).toString() : row.longColumn(c));
                }
                rows.add(b.toString());
            }
        };
        try (JournalReader reader = JournalReader.open(directory))
        {
            while (reader.poll(consumer, 256) > 0)
            {
                // to the end
            }
        }
        return rows;
    }
}
