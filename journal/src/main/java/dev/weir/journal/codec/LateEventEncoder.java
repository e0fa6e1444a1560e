package dev.weir.journal.codec;

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
public final class LateEventEncoder extends EventFieldsEncoder<LateEventEncoder>
{
    /** Length in bytes of a late-event document. */
    public static final int LENGTH = 1 + 4 * 8 + 4;
    /** Offset of {@code offset} from the type byte. */
    static final int OFFSET = 25;
    /** Offset of {@code key_id}. */
    static final int KEY_ID = 33;

    /**
     * @param out where to write.
     * @return this.
     */
    public LateEventEncoder wrap(final Bytes<?> out)
    {
        begin(out, LENGTH, DocumentType.LATE_EVENT);
        return this;
    }

    /** @param offset the event's journal offset. @return this. */
    public LateEventEncoder offset(final long offset)
    {
        out.writeLong(start + OFFSET, offset);
        return this;
    }

    /** @param keyId the event's key id. @return this. */
    public LateEventEncoder keyId(final int keyId)
    {
        out.writeInt(start + KEY_ID, keyId);
        return this;
    }
}
