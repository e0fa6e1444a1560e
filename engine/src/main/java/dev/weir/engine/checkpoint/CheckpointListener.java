package dev.weir.engine.checkpoint;

import java.nio.ByteBuffer;

/**
 * Told of each checkpoint once it is durable in the pipeline's {@link CheckpointStore}: for a service that
 * ships checkpoints elsewhere (the Kafka runner stores them in a compacted topic so that another machine can
 * take a partition over). The payload is the store's payload ({@link CheckpointCodec}'s format), the same
 * bytes a {@link CheckpointStore.Loaded} holds.
 * <p>
 * Called on the thread that wrote the checkpoint: the pipeline's background checkpoint writer, or the engine
 * thread for the checkpoint at the end of a run. It must be quick and must not throw; the buffer is a read-only
 * view, valid only during the call (copy what you keep). Implementations state their own thread-safety.
 */
@FunctionalInterface
public interface CheckpointListener
{
    /**
     * @param sequence the checkpoint's sequence number in its store.
     * @param payload  its payload, from position 0 to its limit; read-only, valid during the call only.
     */
    void onCheckpoint(long sequence, ByteBuffer payload);
}
