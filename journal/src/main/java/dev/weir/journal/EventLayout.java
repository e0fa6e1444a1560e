package dev.weir.journal;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;

/**
 * The fixed binary form of one event document in the {@code events} queue.
 * <pre>
 *   0  byte  type        {@link #TYPE_EVENT}, or {@link #TYPE_EVENT_NEW_KEY} for the first event of a key
 *   1  long  event_id
 *   9  long  event_time  epoch milliseconds, &gt;= 0
 *  17  long  value       fixed point
 *  25  int   key_id      dense id from the key dictionary
 *  29        (length of an event)
 *  29  utf8  key         only in {@link #TYPE_EVENT_NEW_KEY}: the key's string, defining its id
 *  ..  stop  line        optional: the input line the event came from, when an ingest appended it
 *                        (stop-bit encoded; {@link #writeLine}); absent in events appended by other means
 *  ..  stop  unterminated optional, after line: the line's length in bytes, present only when it was the
 *                        last line of a complete input and had no line terminator
 * </pre>
 * A key's definition travels in the same document as its first event, so there is no moment at which
 * an event's key cannot be resolved, whenever the writer dies. Fields are written and read in place
 * with no intermediate objects. Stateless and thread-safe.
 */
public final class EventLayout
{
    /** Document type of an event. */
    public static final byte TYPE_EVENT = 1;
    /** Document type of the first event of a key: an event followed by the key's string. */
    public static final byte TYPE_EVENT_NEW_KEY = 6;
    /** Length in bytes of one event document. */
    public static final int LENGTH = 1 + 8 + 8 + 8 + 4;

    private EventLayout()
    {
    }

    /**
     * Write one event at the write position of {@code out}.
     *
     * @param out       where to write.
     * @param eventId   the event's id.
     * @param eventTime the event's time, epoch ms.
     * @param keyId     the dense id of the event's key.
     * @param value     the event's value.
     */
    public static void write(final BytesOut<?> out, final long eventId, final long eventTime, final int keyId, final long value)
    {
        out.writeByte(TYPE_EVENT);
        out.writeLong(eventId);
        out.writeLong(eventTime);
        out.writeLong(value);
        out.writeInt(keyId);
    }

    /**
     * Write the first event of a key: the event, then the key's string.
     *
     * @param out       where to write.
     * @param eventId   the event's id.
     * @param eventTime the event's time, epoch ms.
     * @param keyId     the dense id of the event's key.
     * @param value     the event's value.
     * @param key       the key's string.
     */
    public static void writeWithKey(
        final BytesOut<?> out, final long eventId, final long eventTime, final int keyId, final long value, final String key)
    {
        out.writeByte(TYPE_EVENT_NEW_KEY);
        out.writeLong(eventId);
        out.writeLong(eventTime);
        out.writeLong(value);
        out.writeInt(keyId);
        out.writeUtf8(key);
    }

    /**
     * Tag the event just written with the input line it came from: its last field.
     *
     * @param out  where the event was written.
     * @param line the line number, &gt;= 0.
     */
    public static void writeLine(final BytesOut<?> out, final long line)
    {
        out.writeStopBit(line);
    }

    /**
     * After {@link #writeLine}: record that the line had no terminator, and its length.
     *
     * @param out    where the event was written.
     * @param length the line's length in bytes.
     */
    public static void writeUnterminated(final BytesOut<?> out, final long length)
    {
        out.writeStopBit(length);
    }

    /**
     * Read the line tag of an event document (consumes the document up to the tag; an unterminated
     * line's length, if any, is left to read with {@code readStopBit()}).
     *
     * @param in an event document (see {@link #isEvent}).
     * @return the input line it came from, or -1 if it carries none.
     */
    public static long readLine(final BytesIn<?> in)
    {
        final int type = in.readUnsignedByte();
        in.readSkip(LENGTH - 1);
        if (type == TYPE_EVENT_NEW_KEY)
        {
            in.readUtf8();
        }
        return in.readRemaining() > 0 ? in.readStopBit() : -1;
    }

    /**
     * @param in a document.
     * @return true if it is an event (with or without a key definition).
     */
    public static boolean isEvent(final BytesIn<?> in)
    {
        if (in.readRemaining() < LENGTH)
        {
            return false;
        }
        final int type = in.peekUnsignedByte();
        return type == TYPE_EVENT || type == TYPE_EVENT_NEW_KEY;
    }

    /**
     * Read one event at the read position of {@code in} and hand it to {@code consumer}.
     *
     * @param in       where to read.
     * @param offset   the journal offset of the document.
     * @param consumer who receives the fields.
     * @return false if the document is not an event document (it is then left unread).
     */
    public static boolean read(final BytesIn<?> in, final long offset, final EventConsumer consumer)
    {
        if (!isEvent(in))
        {
            return false;
        }
        in.readByte();
        final long eventId = in.readLong();
        final long eventTime = in.readLong();
        final long value = in.readLong();
        final int keyId = in.readInt();
        consumer.onEvent(offset, eventId, eventTime, keyId, value);
        return true;
    }
}
