package dev.weir.journal.codec;

import net.openhft.chronicle.bytes.BytesIn;

/**
 * The fields an event document and a late-event document share, at the same offsets: after the type
 * byte, {@code event_id}, {@code event_time} and {@code value} (see {@link EventEncoder} and
 * {@link LateEventEncoder}). Read in place, allocating nothing. Not thread-safe: one owner thread.
 */
abstract sealed class EventFieldsDecoder permits EventDecoder, LateEventDecoder
{
    /** The bytes holding the wrapped document. */
    BytesIn<?> in;
    /** The offset of its type byte. */
    long start;

    /** @return the event's id. */
    public final long eventId()
    {
        return in.readLong(start + EventFieldsEncoder.EVENT_ID);
    }

    /** @return the event's time, epoch ms. */
    public final long eventTime()
    {
        return in.readLong(start + EventFieldsEncoder.EVENT_TIME);
    }

    /** @return the event's value. */
    public final long value()
    {
        return in.readLong(start + EventFieldsEncoder.VALUE);
    }
}
