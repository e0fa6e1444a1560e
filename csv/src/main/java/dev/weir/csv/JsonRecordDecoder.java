package dev.weir.csv;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import dev.weir.journal.EventJournal;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.KeyFormat;

/**
 * Decodes a Kafka record whose value is one JSON object into an event of a journal, as {@code weir run --kafka
 * --record-format json} takes it. The object's members are named as the columns, with {@code event_id} and
 * {@code event_time}; they come in any order, and members of other names are ignored.
 * <ul>
 * <li>{@code event_id}: a number, a 64-bit integer.</li>
 * <li>{@code event_time}: epoch milliseconds (a number) or an ISO-8601 instant (a string), as in a CSV line.</li>
 * <li>A long or decimal column: a number, or a string holding one (a decimal's digits as a CSV field has them).</li>
 * <li>A string column: a string (or a number, taken as its text).</li>
 * <li>A member that is missing or null takes its column's default, if it has one; else the record is refused.</li>
 * </ul>
 * A value that is not one JSON object, a member that is a boolean, an object or an array, a member named twice, a
 * missing member without a default: the record is refused with the reason. The event is then read as the same
 * event's CSV line would be ({@link CsvRecordDecoder}: the same checks of each field, and the record key must be the
 * key's text). Allocates nothing per record once its buffers have grown and its strings are known.
 * <p>
 * Not thread-safe: one per partition, used by the thread that owns the partition's journal.
 */
public final class JsonRecordDecoder
{
    private static final int EVENT_ID = 0;
    private static final int EVENT_TIME = 1;

    private final JournalSchema schema;
    private final boolean defaultColumns;
    private final CsvRecordDecoder csv;
    private final JsonObjectReader reader = new JsonObjectReader();
    private final JsonObjectReader.Members members = this::member;
    /** By field (event_id, event_time, then the columns): its name's bytes. */
    private final byte[][] names;
    /** By field: its column's default's text, or null. */
    private final byte[][] defaults;
    private final int[] kinds;
    private final int[] starts;
    private final int[] ends;
    private byte[] values = new byte[256];
    private int valuesLength;
    private byte[] line = new byte[256];
    private int lineLength;
    private String rejection;

    /**
     * @param schema    the events' columns.
     * @param keyColumn the index of the key column (a string, long or decimal column).
     */
    public JsonRecordDecoder(final JournalSchema schema, final int keyColumn)
    {
        this(schema, new int[] {keyColumn});
    }

    /**
     * @param schema     the events' columns.
     * @param keyColumns the indexes of the key columns, in key order (one or more; string, long or decimal columns):
     *                   the record key is their texts joined as {@link CsvRecordDecoder} has it.
     * @throws IllegalArgumentException if there is no key column.
     */
    public JsonRecordDecoder(final JournalSchema schema, final int[] keyColumns)
    {
        this.schema = schema;
        this.defaultColumns = schema.isDefault();
        this.csv = new CsvRecordDecoder(schema, keyColumns);
        final int fields = schema.size() + 2;
        names = new byte[fields][];
        defaults = new byte[fields][];
        names[EVENT_ID] = "event_id".getBytes(StandardCharsets.UTF_8);
        names[EVENT_TIME] = "event_time".getBytes(StandardCharsets.UTF_8);
        for (int c = 0; c < schema.size(); c++)
        {
            names[c + 2] = schema.column(c).name().getBytes(StandardCharsets.UTF_8);
            defaults[c + 2] = schema.column(c).hasDefault() ? schema.column(c).defaultValue().getBytes(StandardCharsets.UTF_8) : null;
        }
        kinds = new int[fields];
        starts = new int[fields];
        ends = new int[fields];
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
        if (value.length > InputLines.MAX_LINE_BYTES)
        {
            return reject(CsvLineParser.tooLong(value.length));
        }
        Arrays.fill(kinds, 0);
        valuesLength = 0;
        final String invalid = reader.read(value, 0, value.length, members);
        if (invalid != null)
        {
            return reject(invalid);
        }
        lineLength = 0;
        for (int field = 0; field < names.length; field++)
        {
            if (field > 0)
            {
                put((byte)',');
            }
            final String why = field(field);
            if (why != null)
            {
                return reject(why);
            }
        }
        final long offset = csv.append(key, line, lineLength, journal);
        if (offset < 0)
        {
            return reject(csv.rejection());
        }
        return offset;
    }

    /**
     * @return why the last {@link #append} refused its record.
     */
    public String rejection()
    {
        return rejection;
    }

    private String member(final byte[] name, final int nameStart, final int nameEnd, final int kind, final byte[] value, final int start,
        final int end)
    {
        final int field = field(name, nameStart, nameEnd);
        if (field < 0)
        {
            return null; // a member of no column: ignored
        }
        if (kinds[field] != 0)
        {
            return "member " + fieldName(field) + " twice";
        }
        kinds[field] = kind;
        if (kind == JsonObjectReader.STRING || kind == JsonObjectReader.NUMBER)
        {
            final int n = end - start;
            if (valuesLength + n > values.length)
            {
                values = Arrays.copyOf(values, Math.max(values.length * 2, valuesLength + n));
            }
            System.arraycopy(value, start, values, valuesLength, n);
            starts[field] = valuesLength;
            valuesLength += n;
            ends[field] = valuesLength;
        }
        return null;
    }

    private int field(final byte[] name, final int start, final int end)
    {
        final int n = end - start;
        for (int field = 0; field < names.length; field++)
        {
            final byte[] candidate = names[field];
            if (candidate.length == n && Arrays.equals(candidate, 0, n, name, start, end))
            {
                return field;
            }
        }
        return -1;
    }

    /** Write a field to the line. @return null, or why the record is refused. */
    private String field(final int field)
    {
        final int kind = kinds[field];
        final ColumnType type = field < 2 ? ColumnType.LONG : schema.column(field - 2).type();
        switch (kind)
        {
            case 0, JsonObjectReader.NULL ->
            {
                final byte[] defaultText = defaults[field];
                if (defaultText == null)
                {
                    return (kind == 0 ? "no member " : "member is null: ") + fieldName(field);
                }
                return type == ColumnType.STRING ? string(field, defaultText, 0, defaultText.length) : plain(field, defaultText, 0, defaultText.length);
            }
            case JsonObjectReader.STRING ->
            {
                return type == ColumnType.STRING ? string(field, values, starts[field], ends[field]) : plain(field, values, starts[field], ends[field]);
            }
            case JsonObjectReader.NUMBER ->
            {
                return plain(field, values, starts[field], ends[field]);
            }
            default ->
            {
                return "member " + fieldName(field) + " is " + (kind == JsonObjectReader.BOOLEAN ? "a boolean"
                    : kind == JsonObjectReader.OBJECT ? "an object" : "an array") + ", not " + (type == ColumnType.STRING ? "a string" : "a number");
            }
        }
    }

    /** A number's or time's text, as it is: it must not hold what would end a CSV field. */
    private String plain(final int field, final byte[] bytes, final int start, final int end)
    {
        for (int i = start; i < end; i++)
        {
            final byte b = bytes[i];
            if (b == ',' || b == '"' || b == '\n' || b == '\r')
            {
                return "member " + fieldName(field) + " is not a " + (field == EVENT_TIME ? "time" : "number") + ": '"
                    + new String(bytes, start, end - start, StandardCharsets.UTF_8) + "'";
            }
        }
        put(bytes, start, end);
        return null;
    }

    /** A string's text: quoted as RFC 4180 has it, or as it is for the key of the default columns, which is never quoted. */
    private String string(final int field, final byte[] bytes, final int start, final int end)
    {
        if (defaultColumns)
        {
            for (int i = start; i < end; i++)
            {
                final byte b = bytes[i];
                if (!(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '-'))
                {
                    return KeyFormat.whyInvalid(new String(bytes, start, end - start, StandardCharsets.UTF_8));
                }
            }
            put(bytes, start, end);
            return null;
        }
        put((byte)'"');
        for (int i = start; i < end; i++)
        {
            if (bytes[i] == '"')
            {
                put((byte)'"');
            }
            put(bytes[i]);
        }
        put((byte)'"');
        return null;
    }

    private String fieldName(final int field)
    {
        return new String(names[field], StandardCharsets.UTF_8);
    }

    private void put(final byte[] bytes, final int start, final int end)
    {
        for (int i = start; i < end; i++)
        {
            put(bytes[i]);
        }
    }

    private void put(final byte b)
    {
        if (lineLength == line.length)
        {
            line = Arrays.copyOf(line, line.length * 2);
        }
        line[lineLength++] = b;
    }

    private long reject(final String why)
    {
        rejection = why;
        return -1;
    }
}
