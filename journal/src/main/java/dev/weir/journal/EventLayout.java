package dev.weir.journal;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;

/**
 * The fixed binary form of one event document in the {@code events} queue.
 * <pre>
 *   0  byte  type        {@link #TYPE_EVENT}
 *   1  long  event_id
 *   9  long  event_time  epoch milliseconds, &gt;= 0
 *  17  long  value       fixed point
 *  25  int   key_id      dense id from the key dictionary
 *  29        (length)
 * </pre>
 * Fields are written and read in place with no intermediate objects. Stateless and thread-safe.
 */
public final class EventLayout
{
    /** Document type of an event. */
    public static final byte TYPE_EVENT = 1;
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
     * Read one event at the read position of {@code in} and hand it to {@code consumer}.
     *
     * @param in       where to read.
     * @param offset   the journal offset of the document.
     * @param consumer who receives the fields.
     * @return false if the document is not an event document (it is then left unread).
     */
    public static boolean read(final BytesIn<?> in, final long offset, final EventConsumer consumer)
    {
        if (in.readRemaining() < LENGTH || in.peekUnsignedByte() != TYPE_EVENT)
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
