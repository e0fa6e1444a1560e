package dev.weir.csv;

import java.nio.charset.StandardCharsets;

import dev.weir.journal.EventJournal;
import dev.weir.journal.schema.JournalSchema;

/**
 * Decodes a Kafka record (or any keyed message) whose value is one events CSV line in the journal's columns into
 * an event of that journal, as {@code weir run --kafka} takes it: the value is read by {@link CsvLineParser}, with
 * the reasons an ingest gives (a value over {@link InputLines#MAX_LINE_BYTES} bytes is a line too long, as in a
 * file, and trailing line ends are dropped), and the key must be the text of the line's key column, or the record
 * is refused (windows per key are only correct when the topic is partitioned by that key). A value of an
 * {@link OlderWriter}, whose fields lack only the last columns, added with defaults, after the key column, is read
 * in its columns and gets those defaults. Its two methods are those of {@code dev.weir.kafka.RecordDecoder}.
 * <p>
 * A valid record whose value is a plain line ({@link CsvLineParser#parse(byte[], int, int)}: strings seen before)
 * is read from its bytes and appended without allocating; refusing a record allocates its reason.
 * <p>
 * Not thread-safe: one per partition, used by the thread that owns the partition's journal.
 */
public final class CsvRecordDecoder
{
    private final CsvLineParser line;
    /** By count of named columns, the parser of an older writer's line that has that many, or null. */
    private final CsvLineParser[] olderLines;
    private final int keyColumn;
    private String rejection;

    /**
     * @param schema    the events' columns.
     * @param keyColumn the index of the key column (a string or long column).
     */
    public CsvRecordDecoder(final JournalSchema schema, final int keyColumn)
    {
        this.line = new CsvLineParser(schema);
        this.olderLines = new CsvLineParser[schema.size()];
        for (int n = keyColumn + 1; n < schema.size(); n++)
        {
            if (OlderWriter.firstWithoutDefault(schema, n) < 0)
            {
                olderLines[n] = new CsvLineParser(OlderWriter.firstColumns(schema, n));
            }
        }
        this.keyColumn = keyColumn;
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
            return reject("no record key (the key column " + parsed.schema().column(keyColumn).name() + " is " + keyText(parsed, value, end) + ")");
        }
        if (!parsed.fieldIs(keyColumn, key))
        {
            return reject("record key " + shown(new String(key, StandardCharsets.UTF_8)) + " is not the key column "
                + parsed.schema().column(keyColumn).name() + " (" + shown(keyText(parsed, value, end)) + "): the topic must be partitioned by the pipeline's key");
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

    /** @return the key column's text in the value last parsed (for a reason: allocates). */
    private String keyText(final CsvLineParser parsed, final byte[] value, final int end)
    {
        if (parsed.readFromBytes())
        {
            parsed.parse(new String(value, 0, end, StandardCharsets.UTF_8)); // a plain line is as valid as text
        }
        return parsed.columnText(keyColumn);
    }

    private static String shown(final String text)
    {
        return text.length() <= CsvLineParser.SHOWN_CHARS ? "'" + text + "'" : "'" + text.substring(0, CsvLineParser.SHOWN_CHARS) + "...'";
    }
}
