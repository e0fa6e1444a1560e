package dev.weir.journal;

/**
 * How a journal's offsets map to the documents of its queues. An offset names one event (or heartbeat, ingest
 * record, rejected line, table row, result) and is stable, ordered and user-visible: checkpoints, delivery
 * positions, {@code --from/--to}, retention floors and {@code weir inspect} all speak offsets.
 * <p>
 * A journal of marker version 2 to 4 writes one document per event: its offset is the Chronicle queue index
 * ({@link #INDEXED}). A journal of marker version {@value JournalDirectory#FORMAT_VERSION_BATCHED} may pack up to
 * {@value #MAX_SLOTS} events (or results) into one document: the offset of the one in slot {@code s} of the
 * document at queue index {@code i} is {@code (i << }{@value #SLOT_BITS}{@code ) | s} ({@link #SLOTTED}); a document
 * that holds one record has slot 0. Offsets of either kind grow in append order, so they compare as before, and
 * {@code offset + 1} still means "at or after the next". A journal keeps its kind of offsets for its life.
 * <p>
 * Immutable and thread-safe.
 */
public final class JournalOffsets
{
    /** The bits of an offset that name the slot in its document, in a journal of batched documents. */
    public static final int SLOT_BITS = 6;
    /** The most records one batched document holds. */
    public static final int MAX_SLOTS = 1 << SLOT_BITS;

    /** One document per record: an offset is the queue index (marker versions 2 to 4). */
    public static final JournalOffsets INDEXED = new JournalOffsets(0);
    /** Batched documents: an offset is the queue index shifted left {@value #SLOT_BITS} bits, or'd with the slot. */
    public static final JournalOffsets SLOTTED = new JournalOffsets(SLOT_BITS);

    private final int shift;
    private final long slotMask;

    private JournalOffsets(final int shift)
    {
        this.shift = shift;
        this.slotMask = (1L << shift) - 1;
    }

    /**
     * @param index a document's Chronicle queue index.
     * @param slot  the record's place in the document, from 0; 0 for a document of one record.
     * @return the record's offset.
     */
    public long offset(final long index, final int slot)
    {
        assert slot >= 0 && slot <= slotMask : "slot " + slot;
        return (index << shift) | slot;
    }

    /**
     * @param offset a record's offset.
     * @return the Chronicle queue index of the document that holds it.
     */
    public long index(final long offset)
    {
        return offset >> shift;
    }

    /**
     * @param offset a record's offset.
     * @return its place in its document: always 0 for {@link #INDEXED}.
     */
    public int slot(final long offset)
    {
        return (int)(offset & slotMask);
    }

    /**
     * @return the most records one document may hold: {@value #MAX_SLOTS}, or 1 for {@link #INDEXED}.
     */
    public int maxSlots()
    {
        return 1 << shift;
    }

    /**
     * @return true if documents may hold several records ({@link #SLOTTED}).
     */
    public boolean batched()
    {
        return shift != 0;
    }

    @Override
    public String toString()
    {
        return batched() ? "slotted" : "indexed";
    }
}
