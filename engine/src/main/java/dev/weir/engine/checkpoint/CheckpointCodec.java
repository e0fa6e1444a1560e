package dev.weir.engine.checkpoint;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import dev.weir.engine.operator.OperatorState;
import dev.weir.engine.resume.CheckpointMismatchException;
import dev.weir.journal.schema.NewerFormatException;

/**
 * The format of a checkpoint's payload: an envelope (format version, the configuration string, the
 * offset of the last journal document applied, the output position of the last output written, events
 * applied, the phase ({@link Checkpointer#RUNNING}, {@link Checkpointer#FINISHED} or
 * {@link Checkpointer#END_PENDING}), the wall-clock time it was taken), then the window operator's state
 * in {@link OperatorStateCodec}'s format. {@link CheckpointStore} adds the file's own header and checksum
 * around it. Envelope version 1 is the only one a Weir wrote; a newer one is refused with
 * {@link NewerFormatException}.
 * <p>
 * Stateless and thread-safe; each call reads or writes the buffer it is given.
 */
public final class CheckpointCodec
{
    /** The envelope's format version. */
    public static final int ENVELOPE_VERSION = 1;

    private CheckpointCodec()
    {
    }

    /**
     * Write a whole checkpoint payload (no allocation beyond the buffer's growth).
     *
     * @param out            where to write, cleared by the caller.
     * @param configuration  the configuration string the checkpoint is taken under.
     * @param sourceOffset   the offset of the last journal document applied, or -1.
     * @param outputPosition the output journal position of the last output written.
     * @param applied        events applied since the journal's start.
     * @param phase          {@link Checkpointer#RUNNING}, {@link Checkpointer#FINISHED} or {@link Checkpointer#END_PENDING}.
     * @param writtenAt      the wall-clock time, epoch ms.
     * @param state          the window operator's state.
     */
    public static void write(
        final StateBuffer out,
        final String configuration,
        final long sourceOffset,
        final long outputPosition,
        final long applied,
        final byte phase,
        final long writtenAt,
        final OperatorState state)
    {
        assert phase == Checkpointer.RUNNING || phase == Checkpointer.FINISHED || phase == Checkpointer.END_PENDING : "phase";
        out.putInt(ENVELOPE_VERSION)
            .putString(configuration)
            .putLong(sourceOffset)
            .putLong(outputPosition)
            .putLong(applied)
            .putByte(phase)
            .putLong(writtenAt);
        OperatorStateCodec.snapshot(state, out);
    }

    /**
     * Read a checkpoint's envelope and restore its state into an aggregation stage.
     *
     * @param loaded        the checkpoint as loaded from the store.
     * @param configuration the configuration of the pipeline now starting.
     * @param aggregator    the aggregation stage's state to restore into.
     * @return what the checkpoint covers.
     * @throws CheckpointMismatchException if it was taken under another configuration, or its state is in a
     *                                     format this Weir does not restore (see {@link OperatorStateCodec}).
     * @throws NewerFormatException        if its envelope or state was written by a newer Weir.
     */
    public static Checkpoint restore(final CheckpointStore.Loaded loaded, final String configuration, final OperatorState aggregator)
    {
        final StateBuffer in = StateBuffer.reading(loaded.payload());
        readEnvelopeVersion(in, where(loaded));
        final Checkpoint checkpoint = readEnvelope(loaded.sequence(), in);
        if (!checkpoint.configuration().equals(configuration))
        {
            throw new CheckpointMismatchException("the journal was processed with [" + checkpoint.configuration()
                + "], not [" + configuration + "]; run with the same flags, or use 'weir replay' for another configuration");
        }
        OperatorStateCodec.restore(in, aggregator);
        return checkpoint;
    }

    /**
     * Read only what a checkpoint covers, without its state (for inspection).
     *
     * @param loaded the checkpoint as loaded from the store.
     * @return what it covers.
     * @throws NewerFormatException if its envelope was written by a newer Weir.
     */
    public static Checkpoint describe(final CheckpointStore.Loaded loaded)
    {
        final StateBuffer in = StateBuffer.reading(loaded.payload());
        readEnvelopeVersion(in, where(loaded));
        return readEnvelope(loaded.sequence(), in);
    }

    /**
     * Read the format of a checkpoint's state, without reading the state.
     *
     * @param loaded the checkpoint as loaded from the store.
     * @return its state's format version, from {@link OperatorStateCodec#STATE_VERSION_SLOT_ORDER} to
     *         {@link OperatorStateCodec#NEWEST_READ}.
     * @throws NewerFormatException if its envelope or state was written by a newer Weir.
     */
    public static int stateFormat(final CheckpointStore.Loaded loaded)
    {
        final StateBuffer in = StateBuffer.reading(loaded.payload());
        readEnvelopeVersion(in, where(loaded));
        readEnvelope(loaded.sequence(), in);
        return OperatorStateCodec.readFormat(in, where(loaded));
    }

    /**
     * Read what a checkpoint covers and the head of its state (for inspection).
     *
     * @param loaded the checkpoint as loaded from the store.
     * @return the state's watermark, counters and sizes.
     * @throws NewerFormatException if its envelope or state was written by a newer Weir.
     */
    public static StateSummary describeState(final CheckpointStore.Loaded loaded)
    {
        final StateBuffer in = StateBuffer.reading(loaded.payload());
        readEnvelopeVersion(in, where(loaded));
        readEnvelope(loaded.sequence(), in);
        return OperatorStateCodec.peek(in);
    }

    /**
     * Copy a checkpoint payload with other journal positions: the same state, configuration and counts, as if
     * taken after the document at {@code sourceOffset} and the output at {@code outputPosition} of another
     * journal. How a partition moves to a machine whose journal holds the same events at other offsets (the Kafka
     * runner rebuilds a partition's journal from the checkpoint's Kafka offset, then resumes from its start).
     *
     * @param payload        a checkpoint payload, read from its position to its limit (not changed).
     * @param sourceOffset   the offset of the last document the copy covers, or -1 to resume from the start.
     * @param outputPosition the output position of the last output the copy covers, or {@code -1} for none.
     * @return the copy, a new heap buffer from position 0 to its limit.
     * @throws NewerFormatException if the payload's envelope was written by a newer Weir.
     */
    public static ByteBuffer relocate(final ByteBuffer payload, final long sourceOffset, final long outputPosition)
    {
        final ByteBuffer copy = ByteBuffer.allocate(payload.remaining());
        copy.put(payload.duplicate()).flip();
        final StateBuffer in = StateBuffer.reading(copy);
        readEnvelopeVersion(in, "a checkpoint");
        in.getString();
        final int at = copy.remaining() - in.remaining();
        copy.order(ByteOrder.LITTLE_ENDIAN).putLong(at, sourceOffset).putLong(at + Long.BYTES, outputPosition);
        return copy.order(ByteOrder.BIG_ENDIAN);
    }

    /**
     * Read what a checkpoint payload covers, without its state.
     *
     * @param payload a checkpoint payload, read from its position (not changed).
     * @return what it covers (sequence 0: a payload alone has none).
     * @throws NewerFormatException if its envelope was written by a newer Weir.
     */
    public static Checkpoint describe(final ByteBuffer payload)
    {
        final StateBuffer in = StateBuffer.reading(payload);
        readEnvelopeVersion(in, "a checkpoint");
        return readEnvelope(0, in);
    }

    /**
     * Where the state starts in a checkpoint payload, after the envelope (for tools and tests that read or
     * change a state's bytes).
     *
     * @param payload a checkpoint payload, read from its position (not changed).
     * @return the index of the state's first byte in {@code payload}.
     * @throws NewerFormatException if its envelope was written by a newer Weir.
     */
    public static int stateStart(final ByteBuffer payload)
    {
        final StateBuffer in = StateBuffer.reading(payload);
        readEnvelopeVersion(in, "a checkpoint");
        readEnvelope(0, in);
        return payload.limit() - in.remaining();
    }

    /** @return where a loaded checkpoint was read, for a refusal's message: its file, or a payload held in memory */
    private static Object where(final CheckpointStore.Loaded loaded)
    {
        return loaded.file() != null ? loaded.file() : "a checkpoint payload";
    }

    /** Read the envelope's version: 1, the only one a Weir wrote. */
    private static void readEnvelopeVersion(final StateBuffer in, final Object where)
    {
        final int version = in.getInt();
        if (version > ENVELOPE_VERSION)
        {
            throw new NewerFormatException("checkpoint envelope", where, version, ENVELOPE_VERSION);
        }
        if (version != ENVELOPE_VERSION)
        {
            throw new IllegalStateException(where + " has checkpoint envelope version " + version + ", which no Weir wrote");
        }
    }

    private static Checkpoint readEnvelope(final long sequence, final StateBuffer in)
    {
        final String config = in.getString();
        final long sourceOffset = in.getLong();
        final long outputPosition = in.getLong();
        final long applied = in.getLong();
        final byte phase = in.getByte();
        final long writtenAt = in.getLong();
        return new Checkpoint(sequence, config, sourceOffset, outputPosition, applied, phase == Checkpointer.FINISHED, phase == Checkpointer.END_PENDING, writtenAt);
    }

}
