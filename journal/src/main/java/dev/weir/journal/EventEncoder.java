package dev.weir.journal;

import net.openhft.chronicle.bytes.Bytes;

/**
 * Writes one event document ({@link DocumentType#EVENT} or {@link DocumentType#EVENT_NEW_KEY}) in place:
 * {@link #wrap} reserves the fixed part at the write position, the setters fill it in any order, then the
 * optional trailers follow in this order: {@link #key} (exactly for a new key), {@link #line}, {@link #unterminatedLength}.
 * <pre>
 *   0  byte  type        {@link DocumentType#EVENT}, or {@link DocumentType#EVENT_NEW_KEY} for the first event of a key
 *   1  long  event_id
 *   9  long  event_time  epoch milliseconds, &gt;= 0
 *  17  long  value       fixed point
 *  25  int   key_id      dense id from the key dictionary
 *  29        (length of an event)
 *  29  utf8  key         only in {@link DocumentType#EVENT_NEW_KEY}: the key's string, defining its id
 *  ..  stop  line        optional: the input line the event came from, when an ingest appended it
 *                        (stop-bit encoded); absent in events appended by other means
 *  ..  stop  unterminated optional, after line: the line's length in bytes, present only when it was the
 *                        last line of a complete input and had no line terminator
 * </pre>
 * A key's definition travels in the same document as its first event, so there is no moment at which an
 * event's key cannot be resolved, whenever the writer dies. Allocates nothing. A reusable flyweight; not
 * thread-safe: one owner thread.
 */
public final class EventEncoder extends EventFieldsEncoder<EventEncoder>
{
    /** Length in bytes of the fixed part of an event document. */
    public static final int LENGTH = 1 + 8 + 8 + 8 + 4;

    /**
     * Start an event document at the write position of {@code out}.
     *
     * @param out    where to write.
     * @param newKey true for the first event of a key ({@link #key} must follow).
     * @return this.
     */
    public EventEncoder wrap(final Bytes<?> out, final boolean newKey)
    {
        begin(out, LENGTH, newKey ? DocumentType.EVENT_NEW_KEY : DocumentType.EVENT);
        return this;
    }

    /** @param keyId the dense id of the event's key. @return this. */
    public EventEncoder keyId(final int keyId)
    {
        out.writeInt(start + 25, keyId);
        return this;
    }

    /**
     * Append the key's string: only for a document wrapped with {@code newKey}, before any other trailer.
     *
     * @param key the key's string.
     * @return this.
     */
    public EventEncoder key(final String key)
    {
        out.writeUtf8(key);
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
