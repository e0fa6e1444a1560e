package dev.weir.journal.codec;

import net.openhft.chronicle.bytes.BytesIn;

/**
 * Reads one document of the output journal in place: {@link #wrap} tells a result from a late event,
 * {@link #result()} or {@link #late()} exposes its fields. Allocates nothing. Handed to an
 * {@link dev.weir.journal.OutputConsumer}, it is valid only during that call. A reusable flyweight; not
 * thread-safe: one owner thread.
 */
public final class OutputDecoder
{
    private final ResultDecoder result = new ResultDecoder();
    private final LateEventDecoder late = new LateEventDecoder();
    private int type;

    /**
     * @param in a document, at its read position.
     * @return its type ({@link DocumentType#RESULT}, {@link DocumentType#RESULT_UPDATE}, {@link DocumentType#RESULT_EARLY}
     *         or {@link DocumentType#LATE_EVENT}), now wrapped, or 0
     *         if it is not a complete output document.
     */
    public int wrap(final BytesIn<?> in)
    {
        return wrap(in, in.readPosition(), in.readRemaining());
    }

    /**
     * @param in     the bytes holding an output in the layout of its single document (a whole document, or an entry
     *               of a {@link DocumentType#RESULT_BATCH}: {@link ResultBatchDecoder}).
     * @param start  the offset of its type byte.
     * @param length its length.
     * @return its type ({@link DocumentType#RESULT}, {@link DocumentType#RESULT_UPDATE}, {@link DocumentType#RESULT_EARLY}
     *         or {@link DocumentType#LATE_EVENT}), now wrapped, or 0 if it is not a complete output.
     */
    public int wrap(final BytesIn<?> in, final long start, final long length)
    {
        final int t = length > 0 ? in.readUnsignedByte(start) : -1;
        if ((t == DocumentType.RESULT || t == DocumentType.RESULT_UPDATE || t == DocumentType.RESULT_EARLY) && length >= ResultEncoder.LENGTH)
        {
            result.wrap(in, start, ResultEncoder.aggregates(length));
            type = t;
        }
        else if (t == DocumentType.LATE_EVENT && length >= LateEventEncoder.LENGTH)
        {
            late.wrap(in, start);
            type = t;
        }
        else
        {
            type = 0;
        }
        return type;
    }

    /** @return true if the wrapped document is a window result of any kind ({@link ResultDecoder#kind()}). */
    public boolean isResult()
    {
        return type == DocumentType.RESULT || type == DocumentType.RESULT_UPDATE || type == DocumentType.RESULT_EARLY;
    }

    /** @return true if the wrapped document is a late event. */
    public boolean isLate()
    {
        return type == DocumentType.LATE_EVENT;
    }

    /** @return the result's fields; only if {@link #isResult()}. */
    public ResultDecoder result()
    {
        return result;
    }

    /** @return the late event's fields; only if {@link #isLate()}. */
    public LateEventDecoder late()
    {
        return late;
    }

    @Override
    public String toString()
    {
        return isResult() ? result.toString() : isLate() ? late.toString() : "no output";
    }
}
