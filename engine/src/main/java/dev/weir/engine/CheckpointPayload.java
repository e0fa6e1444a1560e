package dev.weir.engine;

import java.nio.ByteBuffer;
import java.util.Objects;

import dev.weir.engine.checkpoint.Checkpoint;
import dev.weir.engine.checkpoint.CheckpointCodec;

/**
 * A pipeline's checkpoint payload held in memory: the bytes a {@link dev.weir.engine.checkpoint.CheckpointListener}
 * is given, kept elsewhere (a Kafka record, a test), from which a pipeline over another journal can recover
 * ({@link PipelineBuilder#recoverFrom(CheckpointPayload)}). What it covers is read from its envelope when it is
 * made.
 * <p>
 * Immutable: the bytes are copied in and never handed out; thread-safe.
 */
public final class CheckpointPayload
{
    private final byte[] bytes;
    private final Checkpoint covered;

    private CheckpointPayload(final byte[] bytes)
    {
        this.bytes = bytes;
        this.covered = CheckpointCodec.describe(ByteBuffer.wrap(bytes));
    }

    /**
     * @param payload a checkpoint payload, from its position to its limit (copied, not changed).
     * @return the payload.
     * @throws dev.weir.journal.schema.NewerFormatException if its envelope was written by a newer Weir.
     * @throws IllegalStateException                 if it is not a checkpoint payload a Weir wrote.
     */
    public static CheckpointPayload of(final ByteBuffer payload)
    {
        final byte[] copy = new byte[payload.remaining()];
        payload.duplicate().get(copy);
        return new CheckpointPayload(copy);
    }

    /**
     * @param payload a checkpoint payload's bytes (copied).
     * @return the payload.
     * @throws dev.weir.journal.schema.NewerFormatException if its envelope was written by a newer Weir.
     * @throws IllegalStateException                 if it is not a checkpoint payload a Weir wrote.
     */
    public static CheckpointPayload of(final byte[] payload)
    {
        return new CheckpointPayload(Objects.requireNonNull(payload, "payload").clone());
    }

    /**
     * @return the configuration string the payload was taken under ({@link PipelineConfiguration#describe()}).
     */
    public String configuration()
    {
        return covered.configuration();
    }

    /**
     * @return the offset, in the journal it was taken over, of the last document it covers, or -1 if none.
     */
    public long sourceOffset()
    {
        return covered.sourceOffset();
    }

    /**
     * @return the position, in the output journal it was taken over, of the last output it covers, or
     *         {@link dev.weir.journal.OutputJournal#NONE}.
     */
    public long outputPosition()
    {
        return covered.outputPosition();
    }

    /**
     * @return a read-only buffer over the payload's bytes.
     */
    ByteBuffer buffer()
    {
        return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
    }
}
