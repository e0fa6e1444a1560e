package dev.weir.csv;

import java.nio.charset.StandardCharsets;

import dev.weir.journal.EventJournal;
import dev.weir.journal.schema.JournalSchema;

/**
 * Decodes a Kafka record (or any keyed message) whose value is one events CSV line in the journal's columns into
 * an event of that journal, as {@code weir run --kafka} takes it: the value is read by {@link CsvLineParser}, with
 * the reasons an ingest gives (a value over {@link InputLines#MAX_LINE_BYTES} bytes is a line too long, as in a
 * file, and trailing line ends are dropped), and the key must be the text of the line's key, or the record is
 * refused (windows per key are only correct when the topic is partitioned by that key). The key's text is as the
 * result rows print it: one field per key column, joined by commas in key order, a field holding a comma, quote or
 * line break quoted as RFC 4180 has it (a key of one column is that column's text as it is, never quoted); a string
 * column's field is its text, a long column's its digits without a plus sign or leading zeros, a decimal column's
 * its value at the column's scale ({@code 12.50}, {@code -0.05}: {@code BigDecimal.toPlainString()}). A value of an
 * {@link OlderWriter}, whose fields lack only the last columns, added with defaults, after the key column, is read
 * in its columns and gets those defaults. Its two methods are those of {@code dev.weir.kafka.RecordDecoder}.
 * <p>
 * A valid record whose value is a plain line ({@link CsvLineParser#parse(byte[], int, int)}: strings seen before)
 * is read from its bytes and appended without allocating (a key of several columns too, unless its record key holds
 * a quote); refusing a record allocates its reason.
 * <p>
 * Not thread-safe: one per partition, used by the thread that owns the partition's journal.
 */
public final class CsvRecordDecoder
{
    private final CsvLineParser line;
    /** By count of named columns, the parser of an older writer's line that has that many, or null. */
    private final CsvLineParser[] olderLines;
    private final int[] keyColumns;
    private String rejection;

    /**
     * @param schema    the events' columns.
     * @param keyColumn the index of the key column (a string, long or decimal column).
     */
    public CsvRecordDecoder(final JournalSchema schema, final int keyColumn)
    {
        this(schema, new int[] {keyColumn});
    }

    /**
     * @param schema     the events' columns.
     * @param keyColumns the indexes of the key columns, in key order (one or more; string, long or decimal columns).
     * @throws IllegalArgumentException if there is no key column.
     */
    public CsvRecordDecoder(final JournalSchema schema, final int[] keyColumns)
    {
        if (keyColumns.length == 0)
        {
            throw new IllegalArgumentException("no key column");
        }
        int lastKey = 0;
        for (final int column : keyColumns)
        {
            lastKey = Math.max(lastKey, column);
        }
        this.line = new CsvLineParser(schema);
        this.olderLines = new CsvLineParser[schema.size()];
        for (int n = lastKey + 1; n < schema.size(); n++)
        {
            if (OlderWriter.firstWithoutDefault(schema, n) < 0)
            {
                olderLines[n] = new CsvLineParser(OlderWriter.firstColumns(schema, n));
            }
        }
        this.keyColumns = keyColumns.clone();
    }

    /**
     * Parse a record and add it to the journal's batch as an event.
     *
     * @param key     the record's key, or null.
     * @param value   the record's value, or null.
     * @param journal the journal, of the columns given (owned by the calling thread).
     * @return the event's slot in the journal's batch ({@link EventJournal#batch()}, which writes it when flushed), or -1
     *         if the record was refused ({@link #rejection()} says why).
     */
    public long append(final byte[] key, final byte[] value, final EventJournal journal)
    {
        if (value == null)
        {
            return reject("no value");
        }
        return append(key, value, value.length, journal);
    }

    /**
     * Parse a line held in the first bytes of an array and add it to the journal's batch as an event.
     *
     * @param key     the record's key, or null.
     * @param value   holds the line.
     * @param length  its length.
     * @param journal the journal, of the columns given (owned by the calling thread).
     * @return the event's slot in the journal's batch ({@link EventJournal#batch()}, which writes it when flushed), or -1
     *         if the record was refused ({@link #rejection()} says why).
     */
    public long append(final byte[] key, final byte[] value, final int length, final EventJournal journal)
    {
        if (length > InputLines.MAX_LINE_BYTES)
        {
            return reject(CsvLineParser.tooLong(length));
        }
        int end = length;
        while (end > 0 && (value[end - 1] == '\n' || value[end - 1] == '\r'))
        {
            end--; // a line end is one byte in UTF-8, never inside a character
        }
        CsvLineParser parsed = line;
        String why = line.parse(value, 0, end);
        if (why != null)
        {
            final String text = line.text();
            final int columns = line.fieldCount() - 2;
            if (text != null && columns > 0 && columns < olderLines.length && olderLines[columns] != null)
            {
                parsed = olderLines[columns]; // an older producer's value, as its fields count them
                why = parsed.parse(text);
            }
            if (why != null)
            {
                return reject(why);
            }
        }
        if (key == null)
        {
            return reject("no record key (the key " + keyNames(parsed) + (keyColumns.length == 1 ? " is " : " are ") + keyText(parsed, value, end) + ")");
        }
        if (!keyIs(parsed, key, value, end))
        {
            return reject("record key " + shown(new String(key, StandardCharsets.UTF_8)) + " is not the key " + keyNames(parsed)
                + " (" + shown(keyText(parsed, value, end)) + "): the topic must be partitioned by the pipeline's key");
        }
        try
        {
            return parsed.append(journal, line.schema());
        }
        catch (final IllegalArgumentException ex)
        {
            return reject(ex.getMessage());
        }
    }

    /**
     * @return why the last {@link #append} refused its record.
     */
    public String rejection()
    {
        return rejection;
    }

    private long reject(final String why)
    {
        rejection = why;
        return -1;
    }

    /**
     * @return true if the record key is the key's text in the value last parsed: without allocating if the value was
     *         read from its bytes and the key has one column or holds no quote.
     */
    private boolean keyIs(final CsvLineParser parsed, final byte[] key, final byte[] value, final int end)
    {
        if (keyColumns.length == 1)
        {
            return parsed.fieldIs(keyColumns[0], key);
        }
        if (parsed.readFromBytes())
        {
            int from = 0;
            boolean quoted = false;
            for (int k = 0; k < keyColumns.length && !quoted; k++)
            {
                int to = from;
                while (to < key.length && key[to] != ',' && key[to] != '"')
                {
                    to++;
                }
                quoted = to < key.length && key[to] == '"';
                final boolean last = k == keyColumns.length - 1;
                if (!quoted && (last ? to != key.length : to == key.length))
                {
                    return false; // too many or too few fields
                }
                if (!quoted && !parsed.fieldIs(keyColumns[k], key, from, to))
                {
                    return false;
                }
                from = to + 1;
            }
            if (!quoted)
            {
                return true;
            }
        }
        return keyText(parsed, value, end).equals(new String(key, StandardCharsets.UTF_8)); // a quoted field: as text
    }

    /** @return the key's text in the value last parsed (allocates; parses the value as text if it was read from its bytes). */
    private String keyText(final CsvLineParser parsed, final byte[] value, final int end)
    {
        if (parsed.readFromBytes())
        {
            parsed.parse(new String(value, 0, end, StandardCharsets.UTF_8)); // a plain line is as valid as text
        }
        if (keyColumns.length == 1)
        {
            return parsed.columnText(keyColumns[0]);
        }
        final StringBuilder text = new StringBuilder();
        for (int k = 0; k < keyColumns.length; k++)
        {
            final String field = parsed.columnText(keyColumns[k]);
            if (k > 0)
            {
                text.append(',');
            }
            if (field.indexOf(',') < 0 && field.indexOf('"') < 0 && field.indexOf('\n') < 0 && field.indexOf('\r') < 0)
            {
                text.append(field);
            }
            else
            {
                text.append('"').append(field.replace("\"", "\"\"")).append('"');
            }
        }
        return text.toString();
    }

    /** @return "column NAME" for a key of one column, else "columns A,B". */
    private String keyNames(final CsvLineParser parsed)
    {
        if (keyColumns.length == 1)
        {
            return "column " + parsed.schema().column(keyColumns[0]).name();
        }
        final StringBuilder names = new StringBuilder("columns ");
        for (int k = 0; k < keyColumns.length; k++)
        {
            names.append(k == 0 ? "" : ",").append(parsed.schema().column(keyColumns[k]).name());
        }
        return names.toString();
    }

    private static String shown(final String text)
    {
        return text.length() <= CsvLineParser.SHOWN_CHARS ? "'" + text + "'" : "'" + text.substring(0, CsvLineParser.SHOWN_CHARS) + "...'";
    }
}
