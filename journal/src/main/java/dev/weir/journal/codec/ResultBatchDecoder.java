package dev.weir.journal.codec;

import net.openhft.chronicle.bytes.BytesIn;

/**
 * Reads one {@link DocumentType#RESULT_BATCH} document (layout: {@link ResultBatchEncoder}) in place: {@link #wrap}
 * reads its count, {@link #next} wraps each output in turn, from slot 0, in an {@link OutputDecoder}; {@link #skipTo}
 * passes over the outputs before a slot. Allocates nothing. Valid while the document is. A reusable flyweight; not
 * thread-safe: one owner thread.
 */
public final class ResultBatchDecoder
{
    private BytesIn<?> in;
    private long end;
    private long entry;
    private int count;
    private int slot;

    /**
     * @param in a document, at its read position (its type byte), ending at its read limit.
     * @return the outputs it holds, or 0 if it is not a complete batch document.
     */
    public int wrap(final BytesIn<?> in)
    {
        return wrap(in, in.readPosition(), in.readRemaining());
    }

    /**
     * @param in     the bytes holding the document.
     * @param start  the offset of its type byte.
     * @param length its length.
     * @return the outputs it holds, or 0 if it is not a complete batch document.
     */
    public int wrap(final BytesIn<?> in, final long start, final long length)
    {
        this.in = in;
        this.end = start + length;
        this.entry = start + ResultBatchEncoder.HEADER_LENGTH;
        this.slot = 0;
        if (length < ResultBatchEncoder.HEADER_LENGTH || in.readUnsignedByte(start) != DocumentType.RESULT_BATCH)
        {
            count = 0;
            return 0;
        }
        count = in.readUnsignedByte(start + ResultBatchEncoder.COUNT);
        return count;
    }

    /** @return the outputs the wrapped batch holds. */
    public int count()
    {
        return count;
    }

    /** @return the slot {@link #next} reads next: from 0 up to {@link #count()} when all were read. */
    public int slot()
    {
        return slot;
    }

    /** @return true if {@link #next} has an output left to read. */
    public boolean hasNext()
    {
        return slot < count;
    }

    /**
     * Wrap the output of the next slot.
     *
     * @param into receives it.
     * @return its type (see {@link OutputDecoder#wrap(BytesIn, long, long)}), or 0 if none is left or it is not a
     *         complete output.
     */
    public int next(final OutputDecoder into)
    {
        if (slot >= count || entry + ResultBatchEncoder.ENTRY_HEADER_LENGTH > end)
        {
            return 0;
        }
        final int length = in.readUnsignedShort(entry);
        final long start = entry + ResultBatchEncoder.ENTRY_HEADER_LENGTH;
        if (start + length > end)
        {
            return 0;
        }
        entry = start + length;
        slot++;
        return into.wrap(in, start, length);
    }

    /**
     * Pass over the outputs before {@code slot}.
     *
     * @param target the slot to read next, at most {@link #count()}.
     * @return true if the batch holds that many entries.
     */
    public boolean skipTo(final int target)
    {
        while (slot < target)
        {
            if (slot >= count || entry + ResultBatchEncoder.ENTRY_HEADER_LENGTH > end)
            {
                return false;
            }
            entry += ResultBatchEncoder.ENTRY_HEADER_LENGTH + in.readUnsignedShort(entry);
            slot++;
        }
        return entry <= end;
    }
}
