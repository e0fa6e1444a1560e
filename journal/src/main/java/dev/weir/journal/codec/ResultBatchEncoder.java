package dev.weir.journal.codec;

import net.openhft.chronicle.bytes.Bytes;

/**
 * Builds one {@link DocumentType#RESULT_BATCH} document in a buffer of its own: the outputs (results of any kind,
 * late events) of slots 0 to n-1, each in the layout of its single document ({@link ResultEncoder},
 * {@link LateEventEncoder}), behind a two-byte length.
 * <pre>
 *   0  byte   type {@link DocumentType#RESULT_BATCH}
 *   1  ubyte  n, the outputs it holds: 2 to {@value #MAX_OUTPUTS} (a writer stores a single output as
 *             its single document; a reader also accepts 1)
 *   2         the output of slot 0: ushort length L, then L bytes in the layout of its single document
 *   4 + L     the output of slot 1, likewise; and so on to slot n-1
 * </pre>
 * The output of slot {@code s} of the document at queue index {@code i} has output position
 * {@code (i << 6) | s} ({@link dev.weir.journal.JournalOffsets#offset(long, int)}). Written only to the {@code results} queue of a
 * journal of batched documents ({@link dev.weir.journal.JournalOffsets#SLOTTED}).
 * <p>
 * {@link #result} and {@link #late} reserve the next entry and hand back the single-document encoder wrapped on it;
 * {@link #document} and {@link #single} give the bytes to copy into a queue document. Allocates nothing once
 * constructed. A reusable buffer; not thread-safe: one owner thread.
 */
public final class ResultBatchEncoder implements AutoCloseable
{
    /** The most outputs one batch holds: the slots of a document ({@link dev.weir.journal.JournalOffsets#MAX_SLOTS}). */
    public static final int MAX_OUTPUTS = 64;
    /** Offset of the count of outputs. */
    static final int COUNT = 1;
    /** Offset of the first entry. */
    public static final int HEADER_LENGTH = 2;
    /** Bytes of an entry's length prefix. */
    public static final int ENTRY_HEADER_LENGTH = 2;
    /** The largest output an entry holds: a result with {@link ResultEncoder#MAX_AGGREGATES} aggregates. */
    public static final int MAX_ENTRY_LENGTH = ResultEncoder.LENGTH + ResultEncoder.MAX_AGGREGATES * Long.BYTES;
    /** The largest batch document. */
    public static final int MAX_LENGTH = HEADER_LENGTH + MAX_OUTPUTS * (ENTRY_HEADER_LENGTH + MAX_ENTRY_LENGTH);

    private final Bytes<?> buffer = Bytes.allocateElasticDirect(MAX_LENGTH);
    private final ResultEncoder resultEncoder = new ResultEncoder();
    private final LateEventEncoder lateEncoder = new LateEventEncoder();
    private int count;
    private long entryStart = -1;

    /**
     * Start the batch afresh, holding no output.
     */
    public ResultBatchEncoder()
    {
        clear();
    }

    /** Drop every output held: the next one is slot 0. */
    public void clear()
    {
        closeEntry();
        buffer.clear();
        buffer.writeByte(DocumentType.RESULT_BATCH);
        buffer.writeByte((byte)0);
        count = 0;
        entryStart = -1;
    }

    /** @return the outputs held. */
    public int count()
    {
        return count;
    }

    /**
     * Reserve the next slot for a result.
     *
     * @param aggregates how many aggregations' values it carries, 0 to {@link ResultEncoder#MAX_AGGREGATES}.
     * @return the result encoder, wrapped on the slot: fill it with {@link ResultEncoder#copy}.
     */
    public ResultEncoder result(final int aggregates)
    {
        openEntry();
        return resultEncoder.wrap(buffer, aggregates);
    }

    /**
     * Reserve the next slot for a late event.
     *
     * @return the late-event encoder, wrapped on the slot: set its fields.
     */
    public LateEventEncoder late()
    {
        openEntry();
        return lateEncoder.wrap(buffer);
    }

    /**
     * @return the bytes of the whole batch document (readable from {@code readPosition()} to {@code readLimit()}),
     *         with its count set; at least two outputs held. Valid until the next change.
     */
    public Bytes<?> document()
    {
        closeEntry();
        assert count >= 2 : "a batch holds two outputs or more";
        buffer.writeUnsignedByte(COUNT, count);
        buffer.readPositionRemaining(0, buffer.writePosition());
        return buffer;
    }

    /**
     * @return the bytes of the only output held, in the layout of its single document; exactly one held. Valid until
     *         the next change.
     */
    public Bytes<?> single()
    {
        closeEntry();
        assert count == 1 : "one output";
        buffer.readPositionRemaining(HEADER_LENGTH + ENTRY_HEADER_LENGTH, buffer.writePosition() - HEADER_LENGTH - ENTRY_HEADER_LENGTH);
        return buffer;
    }

    /** @return the bytes the document holding every output held takes. */
    public long length()
    {
        closeEntry();
        return count == 1 ? buffer.writePosition() - HEADER_LENGTH - ENTRY_HEADER_LENGTH : buffer.writePosition();
    }

    private void openEntry()
    {
        closeEntry();
        if (count >= MAX_OUTPUTS)
        {
            throw new IllegalStateException("a batch holds at most " + MAX_OUTPUTS + " outputs");
        }
        entryStart = buffer.writePosition();
        buffer.writeUnsignedShort(0);
        count++;
    }

    private void closeEntry()
    {
        if (entryStart >= 0)
        {
            buffer.writeUnsignedShort(entryStart, (int)(buffer.writePosition() - entryStart - ENTRY_HEADER_LENGTH));
            entryStart = -1;
        }
    }

    /**
     * Hand the batch to another thread: the next thread to use it becomes its owner (Chronicle checks that one thread
     * uses a buffer). Call it after the last use on the old thread.
     */
    public void handOff()
    {
        buffer.singleThreadedCheckReset();
    }

    @Override
    public void close()
    {
        buffer.releaseLast();
    }
}
