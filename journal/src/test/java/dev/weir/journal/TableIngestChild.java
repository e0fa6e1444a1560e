package dev.weir.journal;

import java.nio.file.Path;

import dev.weir.journal.schema.TableDefinition;

/**
 * The {@code main} of a child JVM that {@link TableJournalMarkerTest} starts as a second process: it adds a table to
 * the journal named by its arguments (or accepts it), appends rows to it and prints {@code appended N}, or prints the
 * refusal after {@code refused:} and exits with {@value #REFUSED}.
 */
final class TableIngestChild
{
    static final int REFUSED = 3;

    private TableIngestChild()
    {
    }

    /**
     * @param args {@code DIR NAME KEY COLUMNS ROWS}: each row's key column (the first column, a string) is {@code k<i>},
     *             valid from {@code i}.
     */
    public static void main(final String[] args)
    {
        try
        {
            final TableDefinition table = TableDefinition.parse(args[1], args[2], args[3]);
            final int rows = Integer.parseInt(args[4]);
            try (EventJournal journal = EventJournal.open(JournalDirectory.openOrCreateForTable(Path.of(args[0]), table, null)))
            {
                final TableAppender appender = journal.table(table.name());
                for (int i = 0; i < rows; i++)
                {
                    appender.upsert(appender.row().validFrom(i).setString(0, "k" + i));
                }
            }
            System.out.println("appended " + rows);
        }
        catch (final JournalRefusedException ex)
        {
            System.out.println("refused: " + ex.getMessage());
            System.exit(REFUSED);
        }
    }
}
