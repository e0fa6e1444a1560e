package dev.weir.csv;

import java.nio.file.Path;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRefusedException;
import dev.weir.journal.schema.TableDefinition;

/**
 * The table an ingest of a table CSV reads, from the table's name, key and columns given ({@code --table},
 * {@code --key}, {@code --columns}) and the journal:
 * <ul>
 *   <li>a table the journal lacks (or a journal not made yet) needs its key and columns;</li>
 *   <li>a table the journal has takes the key and columns not given from it; those given must be its own, which
 *   {@link JournalDirectory#openOrCreateForTable} checks as it opens the journal;</li>
 *   <li>a table may not have a column named {@code op} ({@link TableCsvParser#checkColumns}) nor, as no columns can,
 *   {@code event_time}.</li>
 * </ul>
 * Every refusal is a {@link CsvInputException}. Stateless and thread-safe.
 */
public final class IngestTable
{
    private IngestTable()
    {
    }

    /**
     * @param journalDir the journal directory, which may not exist yet.
     * @param name       the table's name.
     * @param key        its key columns, comma-separated, or null for the existing table's.
     * @param columns    its columns ({@code JournalSchema.parse} syntax), or null for the existing table's.
     * @return the table to ingest into.
     * @throws CsvInputException if a new table lacks its key or columns, or they are not a table's.
     */
    public static TableDefinition resolve(final Path journalDir, final String name, final String key, final String columns)
    {
        final TableDefinition existing = existing(journalDir, name);
        if (existing == null && (key == null || columns == null))
        {
            throw new CsvInputException("table " + name + " is new" + (JournalDirectory.isJournal(journalDir) ? " in journal " + journalDir : "")
                + ": give its --key and --columns");
        }
        final TableDefinition table;
        try
        {
            table = key == null && columns == null ? existing : TableDefinition.parse(name, key != null ? key : String.join(",", existing.key()),
                columns != null ? columns : existing.columns().toString());
            TableCsvParser.checkColumns(table);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new CsvInputException(ex.getMessage()); // names the table
        }
        return table;
    }

    /** @return the journal's table of that name, or null if it has none or is no journal (left for the ingest to refuse). */
    private static TableDefinition existing(final Path journalDir, final String name)
    {
        if (!JournalDirectory.isJournal(journalDir))
        {
            return null;
        }
        try
        {
            return JournalDirectory.open(journalDir).table(name);
        }
        catch (final JournalRefusedException ex)
        {
            return null;
        }
    }
}
