package dev.weir.csv;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

import dev.weir.journal.EventJournal;
import dev.weir.journal.EventRow;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.FieldParser;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.KeyFormat;

/**
 * The one parser of an events CSV line in a journal's {@link JournalSchema} ({@code event_id,event_time,} then
 * one field per column), with the one set of reasons a line is rejected for, whether it comes from a file, a
 * stream or a Kafka record.
 * <p>
 * {@link #parse(byte[], int, int)} first reads the line from its bytes, allocating nothing, when it is in a plain
 * form whose strings were seen before ({@link PlainLine}); any other line is decoded strictly as UTF-8 (reason
 * {@value #INVALID_UTF8}) and read as text by the rules below, which give the same event for a plain line. So a
 * line becomes the same event, or is rejected for the same reason, whichever way it is read; {@link #append}
 * then appends it and learns its strings. {@link #parse(String)} reads a line that is text already.
 * <p>
 * In {@link JournalSchema#DEFAULT} ({@code event_id,event_time,key,value}) a line has exactly four fields,
 * split at commas, each trimmed: an id and value that are 64-bit integers, a time that is a 64-bit integer of epoch
 * milliseconds or an ISO-8601 instant with an offset ({@link IsoInstant}: {@value #ISO_EXAMPLE},
 * {@code 2026-12-02T10:30:00.250+01:00}; truncated to the millisecond), neither negative (before 1970) nor
 * later than {@link EventJournal#MAX_EVENT_TIME}, and a key of {@link KeyFormat}. In any other schema:
 * <ul>
 *   <li>the fields are split as RFC 4180 quotes them ({@link CsvFields}), taken as they are, without trimming;</li>
 *   <li>{@code event_id} and {@code event_time} follow the default columns' rules and reasons;</li>
 *   <li>each named column is read by {@link FieldParser}, with its rules and reasons (a long, a decimal of a
 *   scale, a string of 1 to {@value JournalSchema#MAX_STRING_BYTES} bytes of UTF-8 without a line break).</li>
 * </ul>
 * In a journal created with the default columns that gained columns, the {@code key} column keeps the rule of
 * {@link KeyFormat}, with its reason ({@link #CsvLineParser(JournalSchema, boolean)}). A reason quotes a bad
 * field up to {@value #SHOWN_CHARS} characters.
 * <p>
 * Not thread-safe: a reusable parser holding the last line parsed; one owner thread.
 */
public final class CsvLineParser implements IngestLineParser
{
    /** The header an events CSV of the default columns starts with. */
    public static final String DEFAULT_HEADER = "event_id,event_time,key,value";
    /** The reason of a line that is not valid UTF-8. */
    public static final String INVALID_UTF8 = "invalid UTF-8";
    /** An ISO-8601 instant, as a reason shows the form. */
    public static final String ISO_EXAMPLE = "2026-12-02T09:30:00Z";
    /** The most characters of a bad field that a reason quotes. */
    public static final int SHOWN_CHARS = FieldParser.SHOWN_CHARS;

    private final JournalSchema schema;
    private final boolean defaultColumns;
    private final boolean keyRule;
    private final CsvFields fields = new CsvFields();
    private final EventTimeField time = new EventTimeField();
    private final ColumnValues values;
    private final String[] names;
    private final CharsetDecoder strict = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    private PlainLine plain;
    private boolean readPlain;
    private String text;
    private long eventId;
    private long eventTime;

    /**
     * @param schema the columns of the lines.
     */
    public CsvLineParser(final JournalSchema schema)
    {
        this(schema, false);
    }

    /**
     * @param schema  the columns of the lines.
     * @param keyRule the first column is the {@code key} of a journal created with the default columns, which
     *                keeps the rule of {@link KeyFormat} once the journal gained columns.
     */
    public CsvLineParser(final JournalSchema schema, final boolean keyRule)
    {
        this.schema = schema;
        this.defaultColumns = schema.isDefault();
        this.keyRule = keyRule;
        this.values = new ColumnValues(schema);
        this.plain = new PlainLine(schema);
        final int n = schema.size();
        this.names = new String[n + 2];
        names[0] = "event_id";
        names[1] = "event_time";
        for (int i = 0; i < n; i++)
        {
            names[i + 2] = schema.column(i).name();
        }
    }

    /**
     * Read every line as text, never from its bytes: the reference a test compares the bytes reading with.
     *
     * @return this.
     */
    CsvLineParser textOnly()
    {
        plain = null;
        return this;
    }

    /**
     * @param length a line's length in bytes, over {@link InputLines#MAX_LINE_BYTES}.
     * @return the reason it is rejected.
     */
    public static String tooLong(final long length)
    {
        return "line too long: " + length + " bytes, the limit is " + InputLines.MAX_LINE_BYTES;
    }

    /** @return the schema the lines are read in. */
    public JournalSchema schema()
    {
        return schema;
    }

    /**
     * Parse a line from its bytes; a valid line is held for {@link #append}.
     *
     * @param bytes holds the line, without its terminator; not changed.
     * @param start the line's first byte.
     * @param end   one past its last byte.
     * @return null if valid, else the reason.
     */
    @Override
    public String parse(final byte[] bytes, final int start, final int end)
    {
        if (plain != null && plain.read(bytes, start, end))
        {
            readPlain = true;
            text = null;
            return null;
        }
        return parseDecoded(bytes, start, end);
    }

    /** A line not plain: decoded strictly, then read as text (apart, so that the plain reading stays small). */
    private String parseDecoded(final byte[] bytes, final int start, final int end)
    {
        try
        {
            text = strict.reset().decode(ByteBuffer.wrap(bytes, start, end - start)).toString();
        }
        catch (final CharacterCodingException ex)
        {
            text = null;
            return INVALID_UTF8;
        }
        return parse(text);
    }

    /**
     * @return the text of the last line parsed from bytes, or null if it was read from its bytes only (a valid
     *         plain line) or is not valid UTF-8.
     */
    @Override
    public String text()
    {
        return text;
    }

    /**
     * Parse a line that is text; its fields are then readable by column index.
     *
     * @param line a line without its line terminator.
     * @return null if valid, else the reason.
     */
    public String parse(final String line)
    {
        readPlain = false;
        if (line.isBlank())
        {
            return "empty line";
        }
        if (defaultColumns)
        {
            return parseDefault(line);
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
        final String time = parseIdAndTime(line, fields.start(0), fields.end(0), line, fields.start(1), fields.end(1));
        if (time != null)
        {
            return time;
        }
        for (int i = 0; i < values.size(); i++)
        {
            final String why = parseColumn(line, i, i + 2);
            if (why != null)
            {
                return why;
            }
        }
        return null;
    }

    /** The default columns: four fields split at commas, each trimmed, the key of {@link KeyFormat}. */
    private String parseDefault(final String line)
    {
        final int c1 = line.indexOf(',');
        final int c2 = c1 < 0 ? -1 : line.indexOf(',', c1 + 1);
        final int c3 = c2 < 0 ? -1 : line.indexOf(',', c2 + 1);
        if (c3 < 0 || line.indexOf(',', c3 + 1) >= 0)
        {
            return "expected 4 fields (" + DEFAULT_HEADER + "), found " + (count(line, ',') + 1);
        }
        final String id = line.substring(0, c1).trim();
        final String time = line.substring(c1 + 1, c2).trim();
        final String key = line.substring(c2 + 1, c3).trim();
        final String value = line.substring(c3 + 1).trim();
        final String why = parseIdAndTime(id, 0, id.length(), time, 0, time.length());
        if (why != null)
        {
            return why;
        }
        final String notKey = KeyFormat.whyInvalid(key);
        if (notKey != null)
        {
            return notKey + ": '" + shown(key) + "'";
        }
        try
        {
            values.set(1, Long.parseLong(value));
        }
        catch (final NumberFormatException ex)
        {
            return "value is not a 64-bit integer: '" + shown(value) + "'";
        }
        values.set(0, key);
        return null;
    }

    /** The event id and time, by the rules of every schema: each field's text lies in {@code text} from start to end. */
    private String parseIdAndTime(final String idText, final int idStart, final int idEnd, final String timeText, final int timeStart,
        final int timeEnd)
    {
        try
        {
            eventId = Long.parseLong(idText, idStart, idEnd, 10);
        }
        catch (final NumberFormatException ex)
        {
            return "event_id is not a 64-bit integer: '" + shown(fieldText(0, idText, idStart, idEnd)) + "'";
        }
        if (!time.read(timeText, timeStart, timeEnd))
        {
            return EventTimeField.notATime(fieldText(1, timeText, timeStart, timeEnd));
        }
        eventTime = time.millis();
        return time.whyOutOfRange();
    }

    /** @return a field's text: as it lies in the line in the default columns, else as RFC 4180 unquotes it. */
    private String fieldText(final int field, final String text, final int start, final int end)
    {
        return defaultColumns ? text.substring(start, end) : fields.text(field);
    }

    private String parseColumn(final String line, final int column, final int field)
    {
        final String why = values.read(line, fields, column, field);
        if (why == null && keyRule && column == 0 && values.isString(0))
        {
            final String notKey = KeyFormat.whyInvalid(values.string(0));
            if (notKey != null)
            {
                return notKey + ": '" + shown(values.string(0)) + "'";
            }
        }
        return why;
    }

    /**
     * Append the valid line last parsed, as an ingested line, and learn its strings so that later lines with
     * them are read from their bytes. The journal's columns the line's schema lacks (an older writer's line)
     * get their defaults ({@link OlderWriter}).
     *
     * @param journal            the journal: of this parser's columns, or of more columns with defaults (appended as
     *                           rows); one of the default columns is appended through its key API.
     * @param line               the line's number.
     * @param unterminatedLength the line's length if it had no terminator, else -1.
     * @return the offset of the last event written to the journal: the line's event waits in the journal's batch
     *         ({@link EventJournal#batch()}) until it is flushed.
     */
    @Override
    public long append(final EventJournal journal, final long line, final long unterminatedLength)
    {
        if (readPlain)
        {
            return plain.append(journal, line, unterminatedLength);
        }
        final boolean keyApi = journal.schema().isDefault();
        if (keyApi)
        {
            journal.batch().appendIngested(line, eventId, eventTime, values.string(0), values.longValue(1), unterminatedLength);
        }
        else
        {
            journal.batch().appendIngested(row(journal, journal.schema()), line, unterminatedLength);
        }
        final long offset = journal.batch().lastOffset();
        if (plain != null)
        {
            for (int c = 0; c < values.size(); c++)
            {
                if (values.isString(c))
                {
                    plain.learn(c, values.string(c), keyApi ? journal.keyId(values.string(c)) : journal.stringId(c, values.string(c)));
                }
            }
        }
        return offset;
    }

    /**
     * Add the valid line last parsed, from its bytes or as text, to the journal's batch ({@link EventJournal#batch()})
     * as an event that is no line of a file (a Kafka record's). The strings of a line parsed as text are learned, so
     * that later lines with the same strings are read from their bytes without allocating.
     *
     * @param journal the journal, of this parser's columns or of more columns.
     * @param columns the journal's columns, with the defaults of those this parser's lines lack.
     * @return the event's slot in the batch's pending document (where {@link dev.weir.journal.EventBatch#flush()} writes it).
     */
    public long append(final EventJournal journal, final JournalSchema columns)
    {
        if (readPlain)
        {
            return plain.appendEvent(journal);
        }
        final int slot = columns.isDefault()
            ? journal.batch().append(eventId, eventTime, journal.keyId(values.string(0)), values.longValue(1))
            : journal.batch().append(row(journal, columns));
        if (plain != null)
        {
            for (int c = 0; c < values.size(); c++)
            {
                if (values.isString(c))
                {
                    plain.learn(c, values.string(c), columns.isDefault() ? journal.keyId(values.string(c)) : journal.stringId(c, values.string(c)));
                }
            }
        }
        return slot;
    }

    /**
     * @param column a {@link ColumnType#STRING}, {@link ColumnType#LONG} or {@link ColumnType#DECIMAL} column.
     * @param text   bytes of UTF-8 text (a record's key).
     * @return true if they are the column's text in the last valid line parsed ({@link #columnText}). Allocates
     *         nothing if the line was read from its bytes.
     */
    public boolean fieldIs(final int column, final byte[] text)
    {
        return fieldIs(column, text, 0, text.length);
    }

    /**
     * @param column a {@link ColumnType#STRING}, {@link ColumnType#LONG} or {@link ColumnType#DECIMAL} column.
     * @param text   holds bytes of UTF-8 text (a field of a record's key).
     * @param start  the text's first byte.
     * @param end    one past its last byte.
     * @return true if they are the column's text in the last valid line parsed ({@link #columnText}). Allocates
     *         nothing if the line was read from its bytes.
     */
    public boolean fieldIs(final int column, final byte[] text, final int start, final int end)
    {
        if (readPlain)
        {
            return plain.fieldIs(column, text, start, end);
        }
        return columnText(column).equals(new String(text, start, end - start, StandardCharsets.UTF_8));
    }

    /**
     * @param column a {@link ColumnType#STRING}, {@link ColumnType#LONG} or {@link ColumnType#DECIMAL} column.
     * @return its text in the last valid line parsed as text (not {@link #readFromBytes()}): its string, its long as
     *         {@link Long#toString(long)} writes it, or its decimal as {@link BigDecimal#toPlainString()} writes it
     *         at the column's scale (as the result rows print a key).
     */
    public String columnText(final int column)
    {
        assert !readPlain;
        if (values.isString(column))
        {
            return values.string(column);
        }
        final JournalSchema.Column type = schema.column(column);
        return type.type() == ColumnType.DECIMAL ? BigDecimal.valueOf(values.longValue(column), type.scale()).toPlainString()
            : Long.toString(values.longValue(column));
    }

    /** @return true if the last valid line was read from its bytes alone (its fields are not held as text). */
    public boolean readFromBytes()
    {
        return readPlain;
    }

    private EventRow row(final EventJournal journal, final JournalSchema columns)
    {
        final EventRow row = journal.row();
        row.eventId(eventId).eventTime(eventTime);
        for (int c = 0; c < values.size(); c++)
        {
            if (values.isString(c))
            {
                row.setString(c, journal.stringId(c, values.string(c)));
            }
            else
            {
                row.setLong(c, values.longValue(c));
            }
        }
        OlderWriter.fillDefaults(journal, columns, row, values.size());
        return row;
    }

    /** @return how many fields the last line parsed has, if its columns are not the default ones (0 if it is empty). */
    public int fieldCount()
    {
        return fields.count();
    }

    /** @return how many named columns a line has. */
    public int columns()
    {
        return values.size();
    }

    /**
     * @param column a column index.
     * @return true if it is a {@link ColumnType#STRING} column.
     */
    public boolean isString(final int column)
    {
        return values.isString(column);
    }

    /** @return the event id of the last valid line parsed as text. */
    public long eventId()
    {
        return eventId;
    }

    /** @return the event time of the last valid line parsed as text. */
    public long eventTime()
    {
        return eventTime;
    }

    /**
     * @param column the index of a {@link ColumnType#LONG} or {@link ColumnType#DECIMAL} column.
     * @return its value in the last valid line parsed as text (a decimal's unscaled long).
     */
    public long longColumn(final int column)
    {
        assert !values.isString(column) : schema.column(column);
        return values.longValue(column);
    }

    /**
     * @param column the index of a {@link ColumnType#STRING} column.
     * @return its text in the last valid line parsed as text.
     */
    public String string(final int column)
    {
        assert values.isString(column) : schema.column(column);
        return values.string(column);
    }

    private static String shown(final String field)
    {
        return FieldParser.shown(field);
    }

    private static int count(final String s, final char c)
    {
        int n = 0;
        for (int i = 0; i < s.length(); i++)
        {
            if (s.charAt(i) == c)
            {
                n++;
            }
        }
        return n;
    }
}
