package dev.weir.csv;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

import dev.weir.journal.EventJournal;
import dev.weir.journal.TableAppender;
import dev.weir.journal.TableRow;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.FieldParser;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;

/**
 * The parser of a table CSV line: {@code event_time}, then one field per column of the table in order, then, if
 * the header ends with it, an {@code op} field.
 * <ul>
 *   <li>the fields are split as RFC 4180 quotes them ({@link CsvFields}), taken as they are, without trimming;</li>
 *   <li>{@code event_time} is the time the row is valid from, by the events' rules and reasons ({@link EventTimeField}:
 *   epoch milliseconds or an ISO-8601 instant);</li>
 *   <li>{@code op} is empty or {@value #UPSERT} (the row is the key's from its time on) or {@value #DELETE} (a
 *   tombstone: the key has no row from its time on); any other value is refused
 *   ({@code op must be upsert, delete or empty: 'x'});</li>
 *   <li>a key column may not be empty ({@code empty key column card}); each column is read by {@link FieldParser},
 *   with its rules and reasons; a tombstone's other columns are ignored, and may be empty.</li>
 * </ul>
 * A line is decoded strictly as UTF-8 (reason {@value CsvLineParser#INVALID_UTF8}). A table may not have a column
 * named {@code op} ({@link #checkColumns}), nor, as no columns can, {@code event_time}.
 * <p>
 * Not thread-safe: a reusable parser holding the last line parsed; one owner thread.
 */
public final class TableCsvParser implements IngestLineParser
{
    /** The name of the optional last column of a table CSV. */
    public static final String OP = "op";
    /** The {@code op} of a row that is the key's from its time on (as is an empty {@code op}). */
    public static final String UPSERT = "upsert";
    /** The {@code op} of a tombstone. */
    public static final String DELETE = "delete";

    private static final String EVENT_TIME = "event_time";

    private final TableDefinition table;
    private final boolean withOp;
    private final CsvFields fields = new CsvFields();
    private final EventTimeField time = new EventTimeField();
    private final ColumnValues values;
    private final String[] names;
    private final boolean[] key;
    private final CharsetDecoder strict = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    private EventJournal appending;
    private TableAppender appender;
    private String text;
    private long validFrom;
    private boolean tombstone;

    /**
     * @param table  the table whose lines are read.
     * @param withOp the lines end with an {@code op} field (their header ends with {@code ,op}).
     * @throws IllegalArgumentException if the table has a column named {@code op}.
     */
    public TableCsvParser(final TableDefinition table, final boolean withOp)
    {
        checkColumns(table);
        this.table = table;
        this.withOp = withOp;
        final JournalSchema columns = table.columns();
        this.values = new ColumnValues(columns);
        final int n = columns.size();
        this.names = new String[n + (withOp ? 2 : 1)];
        this.key = new boolean[n];
        names[0] = EVENT_TIME;
        for (int i = 0; i < n; i++)
        {
            names[i + 1] = columns.column(i).name();
        }
        for (int k = 0; k < table.keySize(); k++)
        {
            key[table.keyColumn(k)] = true;
        }
        if (withOp)
        {
            names[n + 1] = OP;
        }
    }

    /**
     * @param table a table (whose columns cannot be named {@code event_id} or {@code event_time}: no columns can).
     * @throws IllegalArgumentException if it has a column named {@code op}, which a table CSV cannot tell from its own
     *                                  last column.
     */
    public static void checkColumns(final TableDefinition table)
    {
        if (table.columns().indexOf(OP) >= 0)
        {
            throw new IllegalArgumentException("table " + table.name() + ": column name '" + OP + "' is reserved: a table CSV's last column "
                + OP + " tells an upsert from a delete");
        }
    }

    /**
     * @param table a table.
     * @return the header of its CSV without an {@code op} column: {@code event_time,} then its columns' names.
     */
    public static String header(final TableDefinition table)
    {
        final StringBuilder header = new StringBuilder(EVENT_TIME);
        for (int i = 0; i < table.columns().size(); i++)
        {
            header.append(',').append(table.columns().column(i).name());
        }
        return header.toString();
    }

    /**
     * Read the first line of a table CSV and check it is the table's header, with or without the {@code op} column.
     *
     * @param input the CSV's name, as a message names it.
     * @param in    its lines, before the first.
     * @param table its table.
     * @return true if the header ends with the {@code op} column.
     * @throws CsvInputException if it is not the table's header.
     * @throws IOException       if it cannot be read.
     */
    static boolean checkHeader(final String input, final InputLines in, final TableDefinition table) throws IOException
    {
        final boolean any = in.next();
        final String header = any ? in.text() : null;
        final String expected = header(table);
        final String found = header == null ? null : header.trim();
        if (expected.equals(found) || (expected + "," + OP).equals(found))
        {
            return found.length() > expected.length();
        }
        throw new CsvInputException(input + " does not start with the header '" + expected + "' (optionally followed by ',op') of table "
            + table.name() + "; its first line is " + (!any ? "missing: the file is empty" : header == null ? "not valid UTF-8"
                : "'" + IngestColumns.shown(header) + "'"));
    }

    @Override
    public String parse(final byte[] bytes, final int start, final int end)
    {
        try
        {
            text = strict.reset().decode(ByteBuffer.wrap(bytes, start, end - start)).toString();
        }
        catch (final CharacterCodingException ex)
        {
            text = null;
            return CsvLineParser.INVALID_UTF8;
        }
        return parse(text);
    }

    @Override
    public String text()
    {
        return text;
    }

    /**
     * Parse a line that is text; its fields are then readable.
     *
     * @param line a line without its line terminator.
     * @return null if valid, else the reason.
     */
    public String parse(final String line)
    {
        if (line.isBlank())
        {
            return "empty line";
        }
        final String split = fields.split(line, names);
        if (split != null)
        {
            return split;
        }
        if (fields.count() != names.length)
        {
            return "expected " + names.length + " fields, got " + fields.count();
        }
        if (!time.read(line, fields.start(0), fields.end(0)))
        {
            return EventTimeField.notATime(fields.text(0));
        }
        final String range = time.whyOutOfRange();
        if (range != null)
        {
            return range;
        }
        validFrom = time.millis();
        final String op = withOp ? fields.text(names.length - 1) : "";
        tombstone = DELETE.equals(op);
        if (!tombstone && !op.isEmpty() && !UPSERT.equals(op))
        {
            return "op must be upsert, delete or empty: '" + FieldParser.shown(op) + "'";
        }
        for (int c = 0; c < values.size(); c++)
        {
            if (key[c] && fields.isEmpty(c + 1))
            {
                return "empty key column " + names[c + 1];
            }
            if (!key[c] && tombstone) // ignored: read as the column's zero
            {
                values.set(c, 0);
                values.set(c, "");
                continue;
            }
            final String why = values.read(line, fields, c, c + 1);
            if (why != null)
            {
                return why;
            }
        }
        return null;
    }

    /**
     * Append the valid line last parsed to its table, as an ingested line: an upsert, or a tombstone.
     *
     * @param journal            a journal that has the table.
     * @param line               the line's number.
     * @param unterminatedLength the line's length if it had no terminator, else -1 (not recorded for a table row).
     * @return the offset of the appended row.
     */
    @Override
    public long append(final EventJournal journal, final long line, final long unterminatedLength)
    {
        final TableRow row = filledRow(journal);
        return tombstone ? appender.deleteIngested(row, line) : appender.upsertIngested(row, line);
    }

    /**
     * Append the valid line last parsed to its table as a row of no ingested source (a Kafka record's): an upsert, or
     * a tombstone.
     *
     * @param journal a journal that has the table.
     * @return the offset of the appended row.
     */
    public long appendRow(final EventJournal journal)
    {
        final TableRow row = filledRow(journal);
        return tombstone ? appender.delete(row) : appender.upsert(row);
    }

    private TableRow filledRow(final EventJournal journal)
    {
        if (journal != appending)
        {
            appender = journal.table(table.name());
            appending = journal;
        }
        final TableRow row = appender.row().clear().validFrom(validFrom);
        for (int c = 0; c < values.size(); c++)
        {
            if (key[c] || !tombstone)
            {
                if (values.isString(c))
                {
                    row.setString(c, values.string(c));
                }
                else
                {
                    row.setLong(c, values.longValue(c));
                }
            }
        }
        return row;
    }

    /** @return the table whose lines are read. */
    public TableDefinition table()
    {
        return table;
    }

    /** @return the time the last valid line parsed is valid from, epoch ms. */
    public long validFrom()
    {
        return validFrom;
    }

    /** @return true if the last valid line parsed is a tombstone ({@code op} {@value #DELETE}). */
    public boolean tombstone()
    {
        return tombstone;
    }

    /**
     * @param column the index of a {@link ColumnType#LONG} or {@link ColumnType#DECIMAL} column of the table.
     * @return its value in the last valid line parsed (a decimal's unscaled long; 0 for a tombstone's column that is
     *         not a key column).
     */
    public long longColumn(final int column)
    {
        assert !values.isString(column) : names[column + 1];
        return values.longValue(column);
    }

    /**
     * @param column the index of a {@link ColumnType#STRING} column of the table.
     * @return its text in the last valid line parsed ("" for a tombstone's column that is not a key column).
     */
    public String string(final int column)
    {
        assert values.isString(column) : names[column + 1];
        return values.string(column);
    }
}
