package dev.weir.engine.checkpoint;

/**
 * What a checkpoint covers, besides the engine state it carries.
 *
 * @param sequence       the checkpoint's sequence number in its store.
 * @param configuration  the pipeline configuration it was taken under (window, lateness, policy, dedupe).
 * @param sourceOffset   offset of the last journal document applied before it, or -1 if none.
 * @param outputPosition output position of the last output written before it, or -1 if none.
 * @param applied        journal events applied before it (duplicates included).
 * @param finished       true if it was taken after the end of a bounded input (watermark at +infinity).
 * @param endPending     true if it was taken just before the end of a bounded input was applied.
 * @param writtenAtMillis wall-clock time it was written, for display only.
 */
public record Checkpoint(
    long sequence,
    String configuration,
    long sourceOffset,
    long outputPosition,
    long applied,
    boolean finished,
    boolean endPending,
    long writtenAtMillis)
{
}
