/**
 * What retention may not delete: {@link dev.weir.engine.retention.RetentionFloor} reads, from a journal's
 * directory alone, the oldest events offset and, per pipeline, the oldest output position that some holder
 * (a pipeline's newest valid checkpoint, a pipeline without one, a PostgreSQL delivery's local record) may
 * still read, and which holder sets each.
 * <p>
 * It sits after {@code checkpoint} (it reads checkpoints) and {@code source} (it reads a checkpoint's key
 * columns with {@link dev.weir.engine.expr.ColumnProjection}'s rule); nothing in the engine depends on it.
 */
package dev.weir.engine.retention;
