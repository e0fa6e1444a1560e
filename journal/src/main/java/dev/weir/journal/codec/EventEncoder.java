package dev.weir.journal.codec;

import net.openhft.chronicle.bytes.Bytes;

import dev.weir.journal.schema.JournalSchema;

/**
 * Writes one event document ({@link DocumentType#EVENT} or {@link DocumentType#EVENT_NEW_KEY}) in place,
 * in the layout of an {@link EventShape}: {@link #wrap} reserves the fixed part at the write position, the
 * setters fill it in any order, then the optional trailers follow in this order: the strings of the new
 * ids ({@link #text}, or {@link #key} in the default shape), {@link #line}, {@link #unterminatedLength}.
 * <pre>
 *   0  byte  type        {@link DocumentType#EVENT}, or {@link DocumentType#EVENT_NEW_KEY} when at least one
 *                        string column's id is new (defined by this document)
 *   1  long  event_id
 *   9  long  event_time  epoch milliseconds, &gt;= 0
 *  17  long  ...         every long and decimal column, in schema order (a decimal as its unscaled long)
 *   .  int   ...         every string column's id, in schema order
 *      (length of an event: {@link EventShape#length()})
 *   .  utf8  ...         only in {@link DocumentType#EVENT_NEW_KEY}: for each string column, in schema order,
 *                        whose id is new, its string, defining the id
 *  ..  stop  line        optional: the input line the event came from, when an ingest appended it
 *                        (stop-bit encoded); absent in events appended by other means
 *  ..  stop  unterminated optional, after line: the line's length in bytes, present only when it was the
 *                        last line of a complete input and had no line terminator
 * </pre>
 * In the default shape ({@code key:string,value:long}) that is: {@code value} at 17, {@code key_id} at 25,
 * 29 bytes, then the key's string in an {@link DocumentType#EVENT_NEW_KEY}: the layout of events before
 * schemas.
 * <p>
 * A journal that gained columns ({@link JournalSchema#extend}, {@link EventShape}) writes every event in the
 * layout of its latest generation G (from 2 on):
 * <pre>
 *   0  byte  type        {@link DocumentType#EVENT_EXTENDED}, or {@link DocumentType#EVENT_EXTENDED_NEW_KEY} when
 *                        at least one string column's id is new
 *   1  ...               the generation-1 part, as above: event_id, event_time, then the columns the journal
 *                        was created with (longs and decimals, then string ids); B bytes in all ({@link EventShape#baseLength()})
 *   B  byte  generation  G, 2 to 32
 * B+1  u16   length      the fixed part's length L (little-endian), so that a reader that knows fewer
 *                        columns finds the trailers
 * B+3  ...               every column added by generations 2 to G, in column order: a long or decimal as a
 *                        long (8 bytes), a string column's id as an int (4 bytes)
 *      (length of an event: L = {@link EventShape#length(int) length(G)})
 *   L  utf8  ...         only in {@link DocumentType#EVENT_EXTENDED_NEW_KEY}: for each string column, in schema order,
 *                        whose id is new, its string (an added column's strings after the others)
 *  ..  stop  line, unterminated: as above
 * </pre>
 * An added string column's id 0 is its default, defined by the schema, never by a document. A reader reads an
 * added column a document of an earlier generation (or of generation 1, {@link DocumentType#EVENT}) lacks as its
 * default. A journal that never gained columns writes only {@link DocumentType#EVENT} and {@link DocumentType#EVENT_NEW_KEY},
 * byte for byte as before. A string's definition travels in the same document as its first event, so there is no moment at
 * which an event's string ids cannot be resolved, whenever the writer dies. Allocates nothing. A reusable
 * flyweight; not thread-safe: one owner thread.
 */
public final class EventEncoder extends EventFieldsEncoder<EventEncoder>
{
    /** Length in bytes of the fixed part of an event document in the default shape. */
    public static final int LENGTH = 1 + 8 + 8 + 8 + 4;
    /** Offset of {@code key_id} from the type byte. */
    static final int KEY_ID = 25;

    private final EventShape shape;

    /** An encoder of the default shape. */
    public EventEncoder()
    {
        this(EventShape.DEFAULT);
    }

    /**
     * @param shape the layout of the events it writes.
     */
    public EventEncoder(final EventShape shape)
    {
        this.shape = shape;
    }

    /**
     * Start an event document at the write position of {@code out}.
     *
     * @param out    where to write.
     * @param newKey true if the event defines at least one string id (the strings, {@link #text}, must follow).
     * @return this.
     */
    public EventEncoder wrap(final Bytes<?> out, final boolean newKey)
    {
        if (shape.generation() == 1)
        {
            begin(out, shape.length(), newKey ? DocumentType.EVENT_NEW_KEY : DocumentType.EVENT);
        }
        else
        {
            begin(out, shape.length(), newKey ? DocumentType.EVENT_EXTENDED_NEW_KEY : DocumentType.EVENT_EXTENDED);
            out.writeByte(start + shape.baseLength(), (byte)shape.generation());
            out.writeShort(start + shape.baseLength() + 1, (short)shape.length());
        }
        return this;
    }

    /** @param keyId the dense id of the event's key (default shape, or one created with it that gained columns). @return this. */
    public EventEncoder keyId(final int keyId)
    {
        assert shape.originalIsDefault() : "keyId() is the default shape's; use stringId(column, id)";
        out.writeInt(start + KEY_ID, keyId);
        return this;
    }

    /**
     * @param column the index of a long or decimal column.
     * @param value  its value (a decimal's unscaled long).
     * @return this.
     */
    public EventEncoder longColumn(final int column, final long value)
    {
        assert !shape.isString(column) : "column " + column + " is a string column";
        out.writeLong(start + shape.offset(column), value);
        return this;
    }

    /**
     * @param column the index of a string column.
     * @param id     the id of its value in that column's dictionary.
     * @return this.
     */
    public EventEncoder stringId(final int column, final int id)
    {
        assert shape.isString(column) : "column " + column + " is not a string column";
        out.writeInt(start + shape.offset(column), id);
        return this;
    }

    /**
     * Append the key's string: only for a document wrapped with {@code newKey}, before any other trailer.
     * The same as {@link #text}, named for the default shape.
     *
     * @param key the key's string.
     * @return this.
     */
    public EventEncoder key(final String key)
    {
        return text(key);
    }

    /**
     * Append the string of a new id: only for a document wrapped with {@code newKey}, once for each string
     * column whose id is new, in schema order, before any other trailer.
     *
     * @param text the string.
     * @return this.
     */
    public EventEncoder text(final String text)
    {
        out.writeUtf8(text);
        return this;
    }

    /**
     * Tag the event with the input line it came from.
     *
     * @param line the line number, &gt;= 0.
     * @return this.
     */
    public EventEncoder line(final long line)
    {
        out.writeStopBit(line);
        return this;
    }

    /**
     * After {@link #line}: record that the line had no terminator, and its length.
     *
     * @param length the line's length in bytes.
     * @return this.
     */
    public EventEncoder unterminatedLength(final long length)
    {
        out.writeStopBit(length);
        return this;
    }
}
