package dev.weir.journal.codec;

import net.openhft.chronicle.bytes.Bytes;

/**
 * Writes one {@link DocumentType#EVENT_BATCH} document: several events in one document of the {@code events} queue,
 * in a journal of batched documents ({@link dev.weir.journal.JournalOffsets#SLOTTED}) only.
 * <pre>
 *   0  byte  type        {@link DocumentType#EVENT_BATCH}
 *   1  byte  count       N, 1 to {@value dev.weir.journal.JournalOffsets#MAX_SLOTS}: the events of slots 0 to N-1
 *   2  then N entries, in slot order, each:
 *        u16   length    L, little-endian: the entry's bytes after this field
 *        ...   event     L bytes: the event in the layout of a single event document ({@link EventEncoder}), its type
 *                        byte included ({@link DocumentType#EVENT}, {@link DocumentType#EVENT_NEW_KEY},
 *                        {@link DocumentType#EVENT_EXTENDED} or {@link DocumentType#EVENT_EXTENDED_NEW_KEY}), with its
 *                        strings and line trailers; an entry ends where its trailers end
 * </pre>
 * The event of slot {@code s} of the document at queue index {@code i} has the offset {@code (i << 6) | s}. A string id's
 * definition travels with its first use, as in single documents: in the entry of the first event of the batch that uses
 * it, so slot order is definition order. Only events are batched: ingest starts, rejected lines, heartbeats and table rows
 * stay documents of their own. A reader that does not know the code refuses the document ({@link DocumentType#refuseNewerEvent}).
 * <p>
 * Entries are built in a buffer ({@link #entry()} wraps an {@link EventEncoder} over it), then written by
 * {@link #writeTo} into the document in one copy. Allocates nothing once the buffer has grown to a batch's size.
 * A reusable flyweight; not thread-safe: one owner thread.
 */
public final class EventBatchEncoder
{
    /** The bytes before the first entry: type and count. */
    public static final int HEADER = 2;
    /** The bytes of an entry's length field. */
    public static final int ENTRY_HEADER = 2;
    /** The longest entry its length field holds. */
    public static final int MAX_ENTRY = 0xFFFF;

    private final Bytes<?> buffer;
    private int count;
    private long entryStart = -1;

    /**
     * @param capacity the buffer's initial capacity in bytes (it grows if an entry needs more).
     */
    public EventBatchEncoder(final int capacity)
    {
        this.buffer = Bytes.allocateElasticDirect(Math.max(capacity, 1024));
        reset();
    }

    /** Drop the entries written so far. */
    public void reset()
    {
        buffer.clear();
        buffer.writeByte(DocumentType.EVENT_BATCH);
        buffer.writeByte((byte)0);
        count = 0;
        entryStart = -1;
    }

    /**
     * Start the next entry: write its event with an {@link EventEncoder} wrapped over the returned bytes at their write
     * position, then call {@link #endEntry()}.
     *
     * @return the buffer, at the entry's event.
     */
    public Bytes<?> entry()
    {
        assert entryStart < 0 : "an entry is open";
        entryStart = buffer.writePosition();
        buffer.writeSkip(ENTRY_HEADER);
        return buffer;
    }

    /**
     * End the entry started by {@link #entry()}.
     *
     * @return its slot.
     * @throws IllegalStateException if it is longer than {@value #MAX_ENTRY} bytes.
     */
    public int endEntry()
    {
        final long length = buffer.writePosition() - entryStart - ENTRY_HEADER;
        if (length > MAX_ENTRY)
        {
            buffer.writePosition(entryStart);
            entryStart = -1;
            throw new IllegalStateException("an event of " + length + " bytes does not fit an entry of a batch");
        }
        buffer.writeUnsignedShort(entryStart, (int)length);
        entryStart = -1;
        return count++;
    }

    /** @return the entries written since the last {@link #reset()}. */
    public int count()
    {
        return count;
    }

    /** @return the document's length so far, in bytes. */
    public long length()
    {
        return buffer.writePosition();
    }

    /**
     * Write the document at the write position of {@code out}; the entries stay until {@link #reset()}.
     *
     * @param out a document being written.
     */
    public void writeTo(final Bytes<?> out)
    {
        assert count > 0 && entryStart < 0;
        buffer.writeByte(1, (byte)count);
        out.write(buffer, 0, buffer.writePosition());
    }

    /**
     * @return the event bytes of the entry of {@code slot} (from its type byte), as written: for a writer that falls
     *         back to one document per event. Positions walked from the first entry.
     */
    public long entryStart(final int slot)
    {
        long at = HEADER;
        for (int s = 0; s < slot; s++)
        {
            at += ENTRY_HEADER + buffer.readUnsignedShort(at);
        }
        return at + ENTRY_HEADER;
    }

    /** @return the length of the event of {@code slot}'s entry. */
    public int entryLength(final int slot)
    {
        return buffer.readUnsignedShort(entryStart(slot) - ENTRY_HEADER);
    }

    /** @return the buffer, for a copy of one entry ({@link #entryStart}, {@link #entryLength}). */
    public Bytes<?> bytes()
    {
        return buffer;
    }

    /** Release the buffer. */
    public void close()
    {
        buffer.releaseLast();
    }
}
