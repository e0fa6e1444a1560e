package dev.weir.journal.codec;

import net.openhft.chronicle.bytes.Bytes;

/**
 * Writes one rejected-line document ({@link DocumentType#REJECTED_LINE}): an input line that is not a valid
 * event, in order with the events. {@link #wrap} reserves the fixed part, {@link #line} fills it, then
 * {@link #reason}, {@link #content} and, optionally, {@link #unterminatedLength} follow in this order.
 * <pre>
 *   0  byte  type {@link DocumentType#REJECTED_LINE}
 *   1  long  line
 *   9  utf8  reason
 *  ..  utf8  content
 *  ..  stop  unterminated  optional: only for a last line that had no line terminator but was taken because
 *                          its source was declared complete, its length in bytes (an event carries it the
 *                          same way, see {@link EventEncoder})
 * </pre>
 * Readers of events skip it. A reusable flyweight; not thread-safe: one owner thread.
 */
public final class RejectedLineEncoder
{
    /** Length in bytes of the fixed part of a rejected line. */
    public static final int LENGTH = 1 + 8;
    /** Offset of the line's number from the type byte. */
    private static final int LINE = 1;

    private Bytes<?> out;
    private long start;

    /**
     * @param out where to write.
     * @return this.
     */
    public RejectedLineEncoder wrap(final Bytes<?> out)
    {
        this.out = out;
        this.start = out.writePosition();
        out.writeSkip(LENGTH);
        out.writeByte(start, DocumentType.REJECTED_LINE);
        return this;
    }

    /** @param line the line number. @return this. */
    public RejectedLineEncoder line(final long line)
    {
        out.writeLong(start + LINE, line);
        return this;
    }

    /** @param reason why the line was rejected (first trailer). @return this. */
    public RejectedLineEncoder reason(final String reason)
    {
        out.writeUtf8(reason);
        return this;
    }

    /** @param content the line as read (after the reason). @return this. */
    public RejectedLineEncoder content(final String content)
    {
        out.writeUtf8(content);
        return this;
    }

    /**
     * After {@link #content}: the line had no terminator.
     *
     * @param length its length in bytes; a negative length writes nothing (the line had a terminator).
     * @return this.
     */
    public RejectedLineEncoder unterminatedLength(final long length)
    {
        if (length >= 0)
        {
            out.writeStopBit(length);
        }
        return this;
    }
}
