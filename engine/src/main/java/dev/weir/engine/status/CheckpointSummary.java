package dev.weir.engine.status;

/**
 * A pipeline's newest valid checkpoint, as {@code weir inspect} shows it: what it covers, the head of its state,
 * and what the next run does with it. Immutable.
 *
 * @param coverage      what it covers.
 * @param stateFormat   its state's format version.
 * @param nextRun       what the next run on the journal does with it: {@code "resumes from it"},
 *                      {@code "rebuilds it by replaying the journal from offset X (...)"} or {@code "refuses it: ..."}.
 * @param watermark     the watermark, epoch ms ({@link Long#MAX_VALUE} once the input finished, {@link Long#MIN_VALUE}
 *                      before any event).
 * @param openWindows   open (key, window) states.
 * @param rememberedIds event ids remembered for dedupe.
 * @param counts        the aggregation's counts.
 */
public record CheckpointSummary(
    CheckpointCoverage coverage, int stateFormat, String nextRun, long watermark, int openWindows, int rememberedIds, CheckpointCounts counts)
{
}
