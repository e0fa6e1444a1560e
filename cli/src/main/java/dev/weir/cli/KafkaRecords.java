package dev.weir.cli;

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
 * key column. Not thread-safe: one per partition.
 */
final class KafkaRecords implements RecordDecoder
{
    private final ColumnsLine line;
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
        final String why = line.parse(stripLineEnd(text));
        if (why != null)
        {
            return reject(why);
        }
        final String keyText = line.isString(keyColumn) ? line.string(keyColumn) : Long.toString(line.longColumn(keyColumn));
        if (key == null)
        {
            return reject("no record key (the key column " + line.schema().column(keyColumn).name() + " is " + keyText + ")");
        }
        final String recordKey = new String(key, StandardCharsets.UTF_8);
        if (!recordKey.equals(keyText))
        {
            return reject("record key " + shown(recordKey) + " is not the key column " + line.schema().column(keyColumn).name()
                + " (" + shown(keyText) + "): the topic must be partitioned by the pipeline's key");
        }
        try
        {
            if (defaultColumns)
            {
                return journal.append(line.eventId(), line.eventTime(), line.string(0), line.longColumn(1));
            }
            final EventRow row = journal.row();
            row.eventId(line.eventId()).eventTime(line.eventTime());
            for (int c = 0; c < line.columns(); c++)
            {
                if (line.isString(c))
                {
                    row.setString(c, journal.stringId(c, line.string(c)));
                }
                else
                {
                    row.setLong(c, line.longColumn(c));
                }
            }
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
