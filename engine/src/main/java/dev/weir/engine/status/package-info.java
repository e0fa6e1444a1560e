/**
 * What a pipeline's files say about it, read from any process while it runs or after it ended, as public values:
 * {@link dev.weir.engine.status.NewestCheckpoint} (the newest valid checkpoint: what it covers, its state's head,
 * what the next run does with it) and {@link dev.weir.engine.status.EngineStat} (the counters and latency histograms
 * of the metrics file). What {@code weir inspect} and {@code weir stat} show, for a service to read without the
 * command line or the internal {@code checkpoint} package.
 * <p>
 * Threading: every read runs on the caller's thread and returns an immutable value; nothing here writes a file.
 * {@link dev.weir.engine.status.EngineStatReport} writes a reading as {@code weir stat}'s text.
 * <p>
 * Depends on {@code checkpoint}, {@code operator} and {@code metrics} (the formats it reads) and on the engine's
 * {@code Recovery} (what the next run does); nothing in the engine depends on it.
 */
package dev.weir.engine.status;
