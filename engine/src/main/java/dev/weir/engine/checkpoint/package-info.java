/**
 * Checkpoints: the operator's state with the journal offset and output position it covers, written
 * atomically ({@link dev.weir.engine.checkpoint.CheckpointStore}: write, fsync, rename), taken by the
 * {@link dev.weir.engine.checkpoint.Checkpointer} between two events, in a format of its own (the
 * codec lives here, not in the operator), and read back once by
 * {@link dev.weir.engine.checkpoint.Recovery} when a run starts.
 * <p>
 * Threading: the checkpointer runs on the last stage's thread; a recovery belongs to the thread that
 * starts the run. Internal.
 * <p>
 * Depends on {@code operator}, {@code state}, {@code emit} and {@code dev.weir.journal}.
 */
package dev.weir.engine.checkpoint;
