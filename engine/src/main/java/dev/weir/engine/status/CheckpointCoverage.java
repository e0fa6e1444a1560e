package dev.weir.engine.status;

import dev.weir.engine.checkpoint.Checkpoint;

/**
 * What a checkpoint covers, besides its state: the journal offset and output position it was taken after, the
 * events applied before it, and the configuration a run must match to resume from it. Immutable.
 *
 * @param sequence        its sequence number in the pipeline's checkpoint directory.
 * @param configuration   the pipeline configuration it was taken under (window, lateness, policy, dedupe, ...).
 * @param sourceOffset    offset of the last journal document applied before it, or -1 if none.
 * @param outputPosition  output position of the last output written before it, or -1 if none.
 * @param applied         journal events applied before it (duplicates included).
 * @param finished        true if it was taken after the end of a bounded input (watermark at +infinity).
 * @param writtenAtMillis wall-clock time it was written, epoch ms, for display only.
 */
public record CheckpointCoverage(
    long sequence, String configuration, long sourceOffset, long outputPosition, long applied, boolean finished, long writtenAtMillis)
{
    static CheckpointCoverage of(final Checkpoint checkpoint)
    {
        return new CheckpointCoverage(checkpoint.sequence(), checkpoint.configuration(), checkpoint.sourceOffset(),
            checkpoint.outputPosition(), checkpoint.applied(), checkpoint.finished(), checkpoint.writtenAtMillis());
    }
}
