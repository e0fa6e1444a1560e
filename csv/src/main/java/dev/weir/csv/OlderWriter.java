package dev.weir.csv;

import dev.weir.journal.EventJournal;
import dev.weir.journal.EventRow;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.JournalSchema;

/**
 * A writer of a journal's events that does not know its last columns yet: its lines (a file's, a Kafka
 * record's) have the journal's first columns only, and the columns they lack were added to the journal with
 * a default ({@link JournalSchema#extend}). Its events are appended with those defaults, as Avro reads a
 * record written with an older schema. Stateless and thread-safe.
 */
final class OlderWriter
{
    private OlderWriter()
    {
    }

    /**
     * @param journal the journal's columns.
     * @param columns how many of its first columns a writer's lines have, less than all.
     * @return the index of the first column the lines lack that has no default, or -1 if every one has one.
     */
    static int firstWithoutDefault(final JournalSchema journal, final int columns)
    {
        for (int c = columns; c < journal.size(); c++)
        {
            if (!journal.column(c).hasDefault())
            {
                return c;
            }
        }
        return -1;
    }

    /**
     * @param journal the journal's columns.
     * @param columns how many of them, 1 or more.
     * @return the first {@code columns} columns.
     */
    static JournalSchema firstColumns(final JournalSchema journal, final int columns)
    {
        final StringBuilder spec = new StringBuilder();
        for (int c = 0; c < columns; c++)
        {
            spec.append(c == 0 ? "" : ",").append(journal.column(c));
        }
        return JournalSchema.parse(spec.toString());
    }

    /**
     * Set the columns a row lacks to their defaults (a string default is interned as any value is).
     *
     * @param journal the journal the row is appended to.
     * @param columns its columns, with the defaults of those the row lacks.
     * @param row     its row, whose columns before {@code from} are set.
     * @param from    the first column the writer's line lacks.
     */
    static void fillDefaults(final EventJournal journal, final JournalSchema columns, final EventRow row, final int from)
    {
        for (int c = from; c < columns.size(); c++)
        {
            final JournalSchema.Column column = columns.column(c);
            if (column.type() == ColumnType.STRING)
            {
                row.setString(c, journal.stringId(c, column.defaultValue()));
            }
            else
            {
                row.setLong(c, column.defaultLong());
            }
        }
    }
}
