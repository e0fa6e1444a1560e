package dev.weir.csv;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRefusedException;
import dev.weir.journal.schema.JournalSchema;

/**
 * The columns an ingest reads, from the columns given ({@code --columns SPEC}), the journal and the events CSV's header:
 * <ul>
 *   <li>{@code --columns} as given; else the existing journal's columns; else {@link JournalSchema#DEFAULT}; a journal
 *   whose events are pending (made by a table ingest) takes them as a new journal does;</li>
 *   <li>{@code --columns} that are an existing journal's columns followed by new ones, each with a default, add
 *   those columns to the journal ({@link #resolve}); events appended before read the defaults;</li>
 *   <li>{@code --columns} that are an existing journal's columns without some of its last ones, each of which has a
 *   default, read a file of those columns: its events get the defaults ({@link OlderWriter});</li>
 *   <li>any other difference from an existing journal's columns (a column removed, renamed, moved or retyped, added
 *   without a default, or an added column's default changed) is refused, naming the column and the rule, before
 *   the journal is touched ({@link JournalSchema#sameColumns}, {@link JournalSchema#extend});</li>
 *   <li>the CSV must start with the header of the columns ({@link JournalSchema#csvHeader()}); a header of other
 *   columns than the default ones, read with the default columns, is refused with the {@code --columns} to pass,
 *   their types guessed from the first line ({@link ColumnsGuess}).</li>
 * </ul>
 * Every refusal is a {@link CsvInputException}. Stateless and thread-safe.
 */
public final class IngestColumns
{
    private IngestColumns()
    {
    }

    /**
     * @param given      the schema of {@code --columns}, or null.
     * @param journalDir the journal directory, which may not exist yet.
     * @return the columns to open or create the journal with: given for a new journal (else the default); for an
     *         existing one, its columns, followed by the new columns of {@code --columns} if it adds some (opening the
     *         journal with them adds them). A journal that cannot be read is left for the command to refuse as it
     *         opens it, as before schemas existed.
     * @throws CsvInputException if given and the journal exists with columns given neither keeps nor extends, or
     *                           cannot be read.
     */
    public static JournalSchema resolve(final JournalSchema given, final Path journalDir)
    {
        if (!JournalDirectory.isJournal(journalDir))
        {
            return given != null ? given : JournalSchema.DEFAULT;
        }
        final JournalDirectory directory;
        try
        {
            directory = JournalDirectory.open(journalDir);
        }
        catch (final JournalRefusedException ex)
        {
            if (given == null)
            {
                return JournalSchema.DEFAULT;
            }
            throw new CsvInputException(ex.getMessage());
        }
        if (directory.eventsPending()) // made by a table ingest: this first event ingest fixes the events' columns
        {
            return given != null ? given : JournalSchema.DEFAULT;
        }
        final JournalSchema existing = directory.schema();
        if (given == null)
        {
            return existing;
        }
        try
        {
            if (existing.sameColumns(given)) // refuses a column they share that differs, naming it and the rule
            {
                return existing;
            }
            if (given.size() < existing.size())
            {
                return olderWriter(existing, given);
            }
            return existing.extend(given);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new CsvInputException("journal " + journalDir + " has the columns " + existing + ", not the --columns " + given + ": "
                + ex.getMessage());
        }
    }

    /**
     * @param existing a journal's columns.
     * @param given    its first columns.
     * @return the journal's columns, if every column given leaves out has a default.
     * @throws IllegalArgumentException naming the first that has none.
     */
    private static JournalSchema olderWriter(final JournalSchema existing, final JournalSchema given)
    {
        final int missing = OlderWriter.firstWithoutDefault(existing, given.size());
        if (missing >= 0)
        {
            throw new IllegalArgumentException("column '" + existing.column(missing).name() + "' is missing: a journal's columns cannot be "
                + "removed (a file may leave out only the last columns that were added with a default)");
        }
        return existing;
    }

    /**
     * Check that a file exists and starts with the header of the columns, before any journal is touched.
     *
     * @param input  the events CSV.
     * @param schema its columns.
     * @throws CsvInputException if not.
     */
    public static void checkHeader(final Path input, final JournalSchema schema)
    {
        if (!Files.isRegularFile(input))
        {
            throw new CsvInputException("input file not found: " + input);
        }
        try (InputLines in = new InputLines(Files.newInputStream(input)))
        {
            checkHeader(input.toString(), in, schema);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + input, ex);
        }
    }

    /**
     * Read the first line of a file and check it is the header of the columns.
     *
     * @param input  the events CSV's name, as a message names it.
     * @param in     its lines, before the first.
     * @param schema its columns.
     * @throws CsvInputException if not.
     * @throws IOException       if it cannot be read.
     */
    static void checkHeader(final String input, final InputLines in, final JournalSchema schema) throws IOException
    {
        final boolean any = in.next();
        final String header = any ? in.text() : null;
        final String expected = schema.csvHeader();
        if (header == null || !expected.equals(header.trim()))
        {
            if (schema.isDefault())
            {
                final String guess = header == null ? null : ColumnsGuess.refusal(input, header, in.next() && !in.tooLong() ? in.text() : null);
                throw new CsvInputException(guess != null ? guess : input + " does not start with the header '" + expected + "'");
            }
            throw new CsvInputException(input + " does not start with the header '" + expected + "' of the columns " + schema + "; its first line is "
                + (!any ? "missing: the file is empty" : header == null ? "not valid UTF-8" : "'" + shown(header) + "'"));
        }
    }

    /** @return a first line as a refusal quotes it: up to twice {@link CsvLineParser#SHOWN_CHARS} characters. */
    static String shown(final String line)
    {
        final int max = 2 * CsvLineParser.SHOWN_CHARS;
        return line.length() <= max ? line : line.substring(0, max) + "...";
    }
}
