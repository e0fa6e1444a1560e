package dev.weir.journal;

import net.openhft.chronicle.bytes.Bytes;

/**
 * Writes one late-event document ({@link DocumentType#LATE_EVENT}) in place: {@link #wrap} reserves it at
 * the write position, the setters fill it in any order.
 * <pre>
 *   0  byte  type {@link DocumentType#LATE_EVENT}
 *   1  long  event_id
 *   9  long  event_time
 *  17  long  value
 *  25  long  source_offset (the event's own offset)
 *  33  int   key_id
 *  37        (length of a late event)
 * </pre>
 * Allocates nothing. A reusable flyweight; not thread-safe: one owner thread.
 */
public final class LateEventEncoder
{
    /** Length in bytes of a late-event document. */
    public static final int LENGTH = 1 + 4 * 8 + 4;

    private Bytes<?> out;
    private long start;

    /**
     * @param out where to write.
     * @return this.
     */
    public LateEventEncoder wrap(final Bytes<?> out)
    {
        this.out = out;
        this.start = out.writePosition();
        out.writeSkip(LENGTH);
        out.writeByte(start, DocumentType.LATE_EVENT);
        return this;
    }

    /** @param eventId the event's id. @return this. */
    public LateEventEncoder eventId(final long eventId)
    {
        out.writeLong(start + 1, eventId);
        return this;
    }

    /** @param eventTime the event's time. @return this. */
    public LateEventEncoder eventTime(final long eventTime)
    {
        out.writeLong(start + 9, eventTime);
        return this;
    }

    /** @param value the event's value. @return this. */
    public LateEventEncoder value(final long value)
    {
        out.writeLong(start + 17, value);
        return this;
    }

    /** @param offset the event's journal offset. @return this. */
    public LateEventEncoder offset(final long offset)
    {
        out.writeLong(start + 25, offset);
        return this;
    }

    /** @param keyId the event's key id. @return this. */
    public LateEventEncoder keyId(final int keyId)
    {
        out.writeInt(start + 33, keyId);
        return this;
    }
}
