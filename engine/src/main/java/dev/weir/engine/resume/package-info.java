/**
 * Why a run refuses to resume from a checkpoint, before it processes anything: the exceptions an application
 * catches. {@link dev.weir.engine.resume.CheckpointMismatchException}: the checkpoint was taken under another
 * configuration (or a state format this Weir does not restore); {@link dev.weir.engine.resume.ResumeAfterEndException}:
 * the checkpoint ends a bounded input, so every later event would be late. Public API.
 * <p>
 * Threading: immutable exceptions, thrown on the thread that starts or recovers a run.
 * <p>
 * Depends on {@code dev.weir.journal} only, so every package of the engine may throw them.
 */
package dev.weir.engine.resume;
