package dev.weir.engine.retention;

/**
 * One thing that still needs part of a journal: the first events offset and the first output position (of
 * its pipeline's output journal) it may read, both inclusive, and a line saying what it is, for
 * {@code weir retain} and {@code weir inspect} to print.
 * <p>
 * Immutable and thread-safe.
 *
 * @param kind        what holds.
 * @param pipeline    the pipeline it belongs to (whose output journal {@code outputsFrom} is a position in).
 * @param eventsFrom  the first events offset it may read: {@link RetentionFloor#FROM_START} for every event,
 *                    {@link RetentionFloor#NOT_HELD} if it reads no events.
 * @param outputsFrom the first output position it may read: {@link RetentionFloor#FROM_START} for every
 *                    output, {@link RetentionFloor#NOT_HELD} if it reads no outputs.
 * @param detail      what it is, e.g. {@code checkpoint 41 written 2026-12-01T18:20:03Z}.
 */
public record RetentionHolder(Kind kind, String pipeline, long eventsFrom, long outputsFrom, String detail)
{
    /**
     * What kind of holder it is.
     */
    public enum Kind
    {
        /** A pipeline's newest valid checkpoint: its recovery reads the event it covers last and every one after, and verifies the outputs from the last it covers. */
        PIPELINE_CHECKPOINT,
        /** A pipeline that ran (outputs, checkpoint files or a metrics file) but has no valid checkpoint: its next run starts from the beginning. */
        PIPELINE_WITHOUT_CHECKPOINT,
        /** A PostgreSQL delivery of a pipeline's output journal, by its local record (an unreadable record holds everything). */
        POSTGRES_DELIVERY
    }

    @Override
    public String toString()
    {
        return kind + " " + pipeline + ": events from " + RetentionFloor.describe(eventsFrom) + ", outputs from "
            + RetentionFloor.describe(outputsFrom) + " (" + detail + ")";
    }
}
