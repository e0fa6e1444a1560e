package dev.weir.journal.codec;

import net.openhft.chronicle.bytes.BytesIn;

/**
 * Reads one late-event document (layout: {@link LateEventEncoder}) in place, allocating nothing. Wrapped
 * by {@link OutputDecoder}; valid while the document is. A reusable flyweight; not thread-safe: one owner thread.
 */
public final class LateEventDecoder extends EventFieldsDecoder implements LateFields
{
    /**
     * @param in    the bytes holding the document.
     * @param start the offset of its type byte.
     * @return this.
     */
    public LateEventDecoder wrap(final BytesIn<?> in, final long start)
    {
        this.in = in;
        this.start = start;
        return this;
    }

    /** @return the event's journal offset. */
    @Override
    public long offset()
    {
        return in.readLong(start + LateEventEncoder.OFFSET);
    }

    /** @return the event's key id. */
    @Override
    public int keyId()
    {
        return in.readInt(start + LateEventEncoder.KEY_ID);
    }

    @Override
    public String toString()
    {
        return "late event " + eventId() + " (source offset " + offset() + ")";
    }
}
