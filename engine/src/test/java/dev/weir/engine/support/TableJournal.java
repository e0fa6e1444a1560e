package dev.weir.engine.support;

import java.nio.file.Path;
import java.util.Map;

import dev.weir.engine.model.JoinCase;
import dev.weir.engine.model.JoinEvent;
import dev.weir.engine.model.JournalEntry;
import dev.weir.engine.model.ModelTable;
import dev.weir.engine.model.ModelTableRow;
import dev.weir.journal.EventJournal;
import dev.weir.journal.EventRow;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.TableAppender;
import dev.weir.journal.TableRow;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;

/**
 * Writes a generated journal with tables ({@link JoinCase}) into a real journal through the Java API: the
 * events' columns ({@code event_id, event_time} and {@link dev.weir.engine.model.JoinStreamGenerator#EVENT_COLUMNS}),
 * each table added, then every entry appended in the case's order ({@code journal.table(name).upsert(row)},
 * {@code delete(row)}, {@code append(row)}, {@code appendHeartbeat(time)}). Test-only.
 */
public final class TableJournal
{
    private TableJournal()
    {
    }

    /**
     * @param c       the case.
     * @param journal a missing or empty directory.
     * @param columns the events' columns ({@link dev.weir.engine.model.JoinStreamGenerator#EVENT_COLUMNS}).
     */
    public static void write(final JoinCase c, final Path journal, final String columns)
    {
        final JournalSchema schema = JournalSchema.parse(columns);
        final JournalDirectory directory = JournalDirectory.create(journal, schema);
        for (final ModelTable t : c.tables())
        {
            JournalDirectory.openOrCreateForTable(journal, definition(t), directory.rollCycle());
        }
        append(c, journal, 0, c.journal().size());
    }

    /**
     * Appends entries {@code from} (inclusive) to {@code to} (exclusive) of the case to a journal {@link #write}
     * made (with none of them), so a test can append while a pipeline follows.
     *
     * @param c       the case.
     * @param journal the journal.
     * @param from    the first entry.
     * @param to      after the last entry.
     * @return the offset of the last event or heartbeat appended, or -1 if none (only table rows).
     */
    public static long append(final JoinCase c, final Path journal, final int from, final int to)
    {
        long lastEvent = -1;
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            final JournalSchema schema = writer.directory().schema();
            for (final JournalEntry entry : c.journal().subList(from, to))
            {
                if (entry instanceof ModelTableRow row)
                {
                    final TableAppender appender = writer.table(row.table());
                    final TableRow out = appender.row().validFrom(row.validFrom());
                    for (final Map.Entry<String, Object> v : row.values().entrySet())
                    {
                        final int column = out.column(v.getKey());
                        if (v.getValue() instanceof String s)
                        {
                            if (!s.isEmpty())
                            {
                                out.setString(column, s);
                            }
                        }
                        else
                        {
                            out.setLong(column, (Long)v.getValue());
                        }
                    }
                    if (row.tombstone())
                    {
                        appender.delete(out);
                    }
                    else
                    {
                        appender.upsert(out);
                    }
                }
                else
                {
                    final JoinEvent event = (JoinEvent)entry;
                    if (event.isHeartbeat())
                    {
                        lastEvent = writer.appendHeartbeat(event.event().eventTime());
                        continue;
                    }
                    final EventRow out = writer.row().eventId(event.event().eventId()).eventTime(event.event().eventTime());
                    for (int i = 0; i < schema.size(); i++)
                    {
                        final Object v = event.column(schema.column(i).name());
                        if (v instanceof String s)
                        {
                            out.setString(i, writer.stringId(i, s));
                        }
                        else
                        {
                            out.setLong(i, (Long)v);
                        }
                    }
                    lastEvent = writer.append(out);
                }
            }
        }
        return lastEvent;
    }

    /**
     * @param t a model table.
     * @return its definition in the journal.
     */
    public static TableDefinition definition(final ModelTable t)
    {
        return TableDefinition.parse(t.name(), t.keyText(), t.columnsText());
    }
}
