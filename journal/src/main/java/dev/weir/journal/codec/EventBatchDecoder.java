package dev.weir.journal.codec;

import net.openhft.chronicle.bytes.BytesIn;

/**
 * Walks the entries of one {@link DocumentType#EVENT_BATCH} document (layout: {@link EventBatchEncoder}) in place:
 * {@link #wrap} reads its count, each {@link #next()} narrows the bytes to the next entry (their read position at the
 * entry's type byte, their read limit at its end), so that every decoder of a single event document
 * ({@link EventDecoder}, {@link EventDecoder#read}) reads the entry as it reads a document. {@link #end()} gives the
 * bytes their document's limit back; a {@link net.openhft.chronicle.wire.DocumentContext} restores both when closed
 * anyway. Allocates nothing. A reusable flyweight; not thread-safe: one owner thread.
 */
public final class EventBatchDecoder
{
    private BytesIn<?> in;
    private long limit;
    private long next;
    private int count;
    private int slot;

    /**
     * @param in a document, at its read position.
     * @return true if it is an {@link DocumentType#EVENT_BATCH} document: wrapped, before its first entry.
     * @throws IllegalStateException if it is one whose count is out of range.
     */
    public boolean wrap(final BytesIn<?> in)
    {
        if (in.readRemaining() < EventBatchEncoder.HEADER || in.peekUnsignedByte() != DocumentType.EVENT_BATCH)
        {
            return false;
        }
        final long at = in.readPosition();
        final int n = in.readUnsignedByte(at + 1);
        if (n < 1 || n > dev.weir.journal.JournalOffsets.MAX_SLOTS)
        {
            throw new IllegalStateException("a corrupt batch of " + n + " events");
        }
        this.in = in;
        this.limit = in.readLimit();
        this.next = at + EventBatchEncoder.HEADER;
        this.count = n;
        this.slot = -1;
        return true;
    }

    /** @return the number of events in the wrapped batch. */
    public int count()
    {
        return count;
    }

    /** @return the slot of the entry {@link #next()} moved to, or -1 before the first. */
    public int slot()
    {
        return slot;
    }

    /**
     * Move to the next entry: the bytes' read position at its type byte, their read limit at its end.
     *
     * @return false if there is none (the bytes then have the document's limit back).
     * @throws IllegalStateException if the entry runs past the document.
     */
    public boolean next()
    {
        in.readLimit(limit);
        if (slot + 1 >= count)
        {
            in.readPosition(limit);
            slot = count;
            return false;
        }
        final long length = in.readUnsignedShort(next);
        final long from = next + EventBatchEncoder.ENTRY_HEADER;
        if (from + length > limit)
        {
            throw new IllegalStateException("a corrupt batch: entry " + (slot + 1) + " of " + length + " bytes runs past its document");
        }
        in.readPosition(from);
        in.readLimit(from + length);
        next = from + length;
        slot++;
        return true;
    }

    /**
     * Pass over entries so that the next {@link #next()} moves to {@code slot}'s (or finds none).
     *
     * @param slot the slot to go on from.
     */
    public void skipTo(final int slot)
    {
        while (this.slot + 1 < Math.min(slot, count))
        {
            next += EventBatchEncoder.ENTRY_HEADER + in.readUnsignedShort(next);
            this.slot++;
        }
    }

    /** Give the bytes their document's read limit back, at its end. */
    public void end()
    {
        in.readLimit(limit);
        in.readPosition(limit);
    }
}
