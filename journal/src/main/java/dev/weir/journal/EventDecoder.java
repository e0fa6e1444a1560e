package dev.weir.journal;

import net.openhft.chronicle.bytes.BytesIn;

/**
 * Reads one event document (layout: {@link EventEncoder}) in place: {@link #wrap} checks the document at
 * the read position of its bytes, the getters read its fields at their offsets. The fixed fields allocate
 * nothing; {@link #key()} allocates its string. The read position is left where it was. A reusable
 * flyweight, valid while the document is; not thread-safe: one owner thread.
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
