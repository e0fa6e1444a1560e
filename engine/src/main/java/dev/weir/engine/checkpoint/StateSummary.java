package dev.weir.engine.checkpoint;

import dev.weir.engine.operator.OperatorCounters;

/**
 * The head of a checkpointed aggregation state, read by {@link OperatorStateCodec#peek(StateBuffer)} for
 * inspection. Immutable once built (its counters are a copy no stage updates).
 *
 * @param watermark     the watermark.
 * @param lastOffset    the last offset applied, or -1.
 * @param counters      the counters.
 * @param rememberedIds ids remembered for dedupe.
 * @param openWindows   open (key, window) states.
 */
public record StateSummary(long watermark, long lastOffset, OperatorCounters counters, int rememberedIds, int openWindows)
{
}
