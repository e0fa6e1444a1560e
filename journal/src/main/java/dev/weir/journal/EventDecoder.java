package dev.weir.journal;

import net.openhft.chronicle.bytes.BytesIn;

/**
 * Reads one event document (layout: {@link EventEncoder}) in place: {@link #wrap} checks the document at
 * the read position of its bytes, the getters read its fields at their offsets. The fixed fields allocate
 * nothing; {@link #key()} allocates its string. The read position is left where it was. A reusable
 * flyweight, valid while the document is; not thread-safe: one owner thread.
 * <p>
 * The journal's scan reads only the fixed fields of every event, once each, in order: {@link #read} does
 * that with sequential reads, which on a Chronicle queue's mapped bytes cost measurably less per event
 * than the flyweight's absolute reads (the scan's hot path; see {@link JournalReader#poll}).
 */
public final class EventDecoder extends EventFieldsDecoder
{
    private final StringBuilder skipped = new StringBuilder();
    private int type;
    private long line;
    private long unterminatedLength;
    private boolean trailerRead;

    /**
     * @param in a document, at its read position.
     * @return true if it is an event document (with or without a key definition), now wrapped; false otherwise.
     */
    public boolean wrap(final BytesIn<?> in)
    {
        if (in.readRemaining() < EventEncoder.LENGTH)
        {
            return false;
        }
        final int t = in.peekUnsignedByte();
        if (t != DocumentType.EVENT && t != DocumentType.EVENT_NEW_KEY)
        {
            return false;
        }
        this.in = in;
        this.start = in.readPosition();
        this.type = t;
        this.trailerRead = false;
        return true;
    }

    /**
     * Read the event document at the read position of {@code in}, if it is one, and hand its fixed fields
     * to {@code consumer}; the key's string and the ingest trailers are not read. Unlike {@link #wrap}, this
     * consumes the fixed fields: the read position is left just after {@code key_id} (a
     * {@link net.openhft.chronicle.wire.DocumentContext} moves it to the document's end when closed).
     * Allocates nothing; stateless.
     *
     * @param in       a document, at its read position.
     * @param offset   the document's journal offset, handed to the consumer.
     * @param consumer receives the event's fields, on this thread.
     * @return true if it was an event document (with or without a key definition); false otherwise, the
     *         document then left unread.
     */
    public static boolean read(final BytesIn<?> in, final long offset, final EventConsumer consumer)
    {
        if (in.readRemaining() < EventEncoder.LENGTH)
        {
            return false;
        }
        final int t = in.peekUnsignedByte();
        if (t != DocumentType.EVENT && t != DocumentType.EVENT_NEW_KEY)
        {
            return false;
        }
        // the layout's order: type, event_id, event_time, value, key_id
        in.readByte();
        final long eventId = in.readLong();
        final long eventTime = in.readLong();
        final long value = in.readLong();
        final int keyId = in.readInt();
        consumer.onEvent(offset, eventId, eventTime, keyId, value);
        return true;
    }

    /** @return true if the event defines its key ({@link DocumentType#EVENT_NEW_KEY}). */
    public boolean hasKey()
    {
        return type == DocumentType.EVENT_NEW_KEY;
    }

    /** @return the dense id of the event's key. */
    public int keyId()
    {
        return in.readInt(start + 25);
    }

    /** @return the key's string if {@link #hasKey()}, else (or if it is unreadable) null. */
    public String key()
    {
        if (!hasKey())
        {
            return null;
        }
        final long saved = in.readPosition();
        try
        {
            in.readPosition(start + EventEncoder.LENGTH);
            return in.readUtf8();
        }
        finally
        {
            in.readPosition(saved);
        }
    }

    /** @return the input line the event came from, or -1 if it carries none. */
    public long line()
    {
        readTrailer();
        return line;
    }

    /** @return the length in bytes of an unterminated last line, or -1 if the line had a terminator or there is none. */
    public long unterminatedLength()
    {
        readTrailer();
        return unterminatedLength;
    }

    private void readTrailer()
    {
        if (trailerRead)
        {
            return;
        }
        trailerRead = true;
        final long saved = in.readPosition();
        try
        {
            in.readPosition(start + EventEncoder.LENGTH);
            if (hasKey())
            {
                skipped.setLength(0);
                in.readUtf8(skipped);
            }
            line = in.readRemaining() > 0 ? in.readStopBit() : -1;
            unterminatedLength = line >= 0 && in.readRemaining() > 0 ? in.readStopBit() : -1;
        }
        finally
        {
            in.readPosition(saved);
        }
    }
}
