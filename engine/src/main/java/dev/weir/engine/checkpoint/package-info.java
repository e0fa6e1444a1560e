/**
 * Checkpoints: {@code Checkpointer} takes them on the last stage's thread (the envelope: configuration,
 * offsets, phase; then the state through {@code OperatorStateCodec}), {@code CheckpointWriter} writes them in
 * the background, {@code CheckpointStore} keeps the newest few on disk, checksummed, and loads the newest
 * valid one; {@code OperatorStateCodec} owns the format of the aggregation stage's state; the engine's
 * {@link dev.weir.engine.Recovery} reads the newest valid checkpoint once when a run starts and restores it into the
 * new stages.
 * <p>
 * Threading: the last stage's thread, plus the writer's own thread for the files; the static readers
 * ({@code describe}, {@code describeState}, {@code peek}) may run on any thread over a loaded checkpoint. Internal.
 * <p>
 * Depends on {@code operator} (the state it encodes), {@code state}, {@code emit} (the output position a
 * checkpoint covers), {@code resume} (the refusals) and the journal.
 */
package dev.weir.engine.checkpoint;
