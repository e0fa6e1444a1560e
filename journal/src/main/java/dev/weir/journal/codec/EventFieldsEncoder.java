package dev.weir.journal.codec;

import net.openhft.chronicle.bytes.Bytes;

/**
 * The fields an event document and a late-event document share, at the same offsets: after the type
 * byte, {@code event_id}, {@code event_time} and {@code value} (see {@link EventEncoder} and
 * {@link LateEventEncoder}). Written in place, allocating nothing. Not thread-safe: one owner thread.
 *
 * @param <E> the encoder, returned by the setters.
 */
abstract sealed class EventFieldsEncoder<E extends EventFieldsEncoder<E>> permits EventEncoder, LateEventEncoder
{
    /** Offset of {@code event_id} from the type byte. */
    static final int EVENT_ID = 1;
    /** Offset of {@code event_time}. */
    static final int EVENT_TIME = 9;
    /** Offset of {@code value}. */
    static final int VALUE = 17;

    /** Where the document is written. */
    Bytes<?> out;
    /** The offset of its type byte. */
    long start;

    /**
     * Reserve {@code length} bytes at the write position of {@code out} and write the type byte.
     *
     * @param out    where to write.
     * @param length the length of the document's fixed part.
     * @param type   its type ({@link DocumentType}).
     */
    final void begin(final Bytes<?> out, final int length, final byte type)
    {
        this.out = out;
        this.start = out.writePosition();
        out.writeSkip(length);
        out.writeByte(start, type);
    }

    /** @param eventId the event's id. @return this. */
    public final E eventId(final long eventId)
    {
        out.writeLong(start + EVENT_ID, eventId);
        return self();
    }

    /** @param eventTime the event's time, epoch ms. @return this. */
    public final E eventTime(final long eventTime)
    {
        out.writeLong(start + EVENT_TIME, eventTime);
        return self();
    }

    /** @param value the event's value. @return this. */
    public final E value(final long value)
    {
        out.writeLong(start + VALUE, value);
        return self();
    }

    @SuppressWarnings("unchecked")
    private E self()
    {
        return (E)this;
    }
}
