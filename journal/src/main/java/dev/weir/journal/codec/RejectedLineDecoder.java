package dev.weir.journal.codec;

import net.openhft.chronicle.bytes.BytesIn;

/**
 * Reads one rejected-line document (layout: {@link RejectedLineEncoder}). {@link #wrap} reads its strings
 * (it allocates them); the read position is left where it was. A reusable flyweight, valid while the
 * document is; not thread-safe: one owner thread.
 */
public final class RejectedLineDecoder
{
    private long line;
    private String reason;
    private String content;
    private long unterminatedLength;

    /**
     * @param in a document, at its read position.
     * @return true if it is a rejected line, now read; false otherwise.
     */
    public boolean wrap(final BytesIn<?> in)
    {
        if (DocumentType.peek(in) != DocumentType.REJECTED_LINE)
        {
            return false;
        }
        final long saved = in.readPosition();
        try
        {
            in.readSkip(1);
            line = in.readLong();
            reason = in.readUtf8();
            content = in.readUtf8();
            unterminatedLength = in.readRemaining() > 0 ? in.readStopBit() : -1;
        }
        finally
        {
            in.readPosition(saved);
        }
        return true;
    }

    /** @return the line number. */
    public long line()
    {
        return line;
    }

    /** @return why the line was rejected. */
    public String reason()
    {
        return reason;
    }

    /** @return the line as read. */
    public String content()
    {
        return content;
    }

    /** @return its length in bytes if it was an unterminated last line, else -1. */
    public long unterminatedLength()
    {
        return unterminatedLength;
    }
}
