package dev.weir.csv;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

import dev.weir.journal.EventJournal;
import dev.weir.journal.EventRow;
import dev.weir.journal.JournalSchema;
import dev.weir.kafka.RecordDecoder;

/**
 * Reads a Kafka record as {@code weir run --kafka} takes it: the value is one events CSV line in the journal's
 * columns, read by {@link ColumnsLine} with the reasons {@code weir ingest} gives (a value over
 * {@link InputLines#MAX_LINE_BYTES} bytes is a line too long, as in a file), and the key must be the text of the line's
 * key column. A value of an {@link OlderWriter}, whose fields lack only the last columns, added with defaults, after the
 * key column, is read in its columns and gets those defaults. Not thread-safe: one per partition.
 */
final class KafkaRecords implements RecordDecoder
{
    private final ColumnsLine line;
    /** By count of named columns, the line of an older writer that has that many, or null. */
    private final ColumnsLine[] olderLines;
    private final int keyColumn;
    private final boolean defaultColumns;
    private String rejection;

    /**
     * @param schema    the events' columns.
     * @param keyColumn the index of the key column (a string or long column).
     */
    KafkaRecords(final JournalSchema schema, final int keyColumn)
    {
        this.line = new ColumnsLine(schema);
        this.olderLines = new ColumnsLine[schema.size()];
        for (int n = keyColumn + 1; n < schema.size(); n++)
        {
            if (OlderWriter.firstWithoutDefault(schema, n) < 0)
            {
                olderLines[n] = new ColumnsLine(OlderWriter.firstColumns(schema, n));
            }
        }
        this.keyColumn = keyColumn;
        this.defaultColumns = schema.isDefault();
    }

    @Override
    public long append(final byte[] key, final byte[] value, final EventJournal journal)
    {
        if (value == null)
        {
            return reject("no value");
        }
        if (value.length > InputLines.MAX_LINE_BYTES)
        {
            return reject("line too long: " + value.length + " bytes, the limit is " + InputLines.MAX_LINE_BYTES);
        }
        final String text;
        try
        {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(value)).toString();
        }
        catch (final CharacterCodingException ex)
        {
            return reject("invalid UTF-8");
        }
        final String stripped = stripLineEnd(text);
        ColumnsLine parsed = line;
        String why = line.parse(stripped);
        if (why != null)
        {
            final int columns = line.fieldCount() - 2;
            if (columns > 0 && columns < olderLines.length && olderLines[columns] != null)
            {
                parsed = olderLines[columns]; // an older producer's value, as its fields count them
                why = parsed.parse(stripped);
            }
            if (why != null)
            {
                return reject(why);
            }
        }
        final String keyText = parsed.isString(keyColumn) ? parsed.string(keyColumn) : Long.toString(parsed.longColumn(keyColumn));
        if (key == null)
        {
            return reject("no record key (the key column " + parsed.schema().column(keyColumn).name() + " is " + keyText + ")");
        }
        final String recordKey = new String(key, StandardCharsets.UTF_8);
        if (!recordKey.equals(keyText))
        {
            return reject("record key " + shown(recordKey) + " is not the key column " + parsed.schema().column(keyColumn).name()
                + " (" + shown(keyText) + "): the topic must be partitioned by the pipeline's key");
        }
        try
        {
            if (defaultColumns)
            {
                return journal.append(parsed.eventId(), parsed.eventTime(), parsed.string(0), parsed.longColumn(1));
            }
            final EventRow row = journal.row();
            row.eventId(parsed.eventId()).eventTime(parsed.eventTime());
            for (int c = 0; c < parsed.columns(); c++)
            {
                if (parsed.isString(c))
                {
                    row.setString(c, journal.stringId(c, parsed.string(c)));
                }
                else
                {
                    row.setLong(c, parsed.longColumn(c));
                }
            }
            OlderWriter.fillDefaults(journal, line.schema(), row, parsed.columns());
            return journal.append(row);
        }
        catch (final IllegalArgumentException ex)
        {
            return reject(ex.getMessage());
        }
    }

    @Override
    public String rejection()
    {
        return rejection;
    }

    private long reject(final String why)
    {
        rejection = why;
        return -1;
    }

    private static String stripLineEnd(final String text)
    {
        int end = text.length();
        while (end > 0 && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r'))
        {
            end--;
        }
        return text.substring(0, end);
    }

    private static String shown(final String text)
    {
        return text.length() <= EventLine.SHOWN_CHARS ? "'" + text + "'" : "'" + text.substring(0, EventLine.SHOWN_CHARS) + "...'";
    }
}
