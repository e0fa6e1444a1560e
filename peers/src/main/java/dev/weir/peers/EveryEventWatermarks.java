package dev.weir.peers;

import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;

/**
 * Flink's bounded-out-of-orderness watermarks ({@code max event time - D - 1}), emitted after every event that
 * advances them rather than periodically: Weir's watermark ({@code max event time - D}, DESIGN.md) moves after every
 * event, and Flink's window operator with this generator fires, drops and side-outputs exactly where Weir does
 * (Flink fires a window when {@code end - 1 <= watermark}). Not thread-safe: one per subtask, as Flink uses it.
 */
final class EveryEventWatermarks<T> implements WatermarkGenerator<T>
{
    private final long outOfOrdernessMs;
    private long maxTimestamp;
    private long emitted = Long.MIN_VALUE;

    EveryEventWatermarks(final long outOfOrdernessMs)
    {
        this.outOfOrdernessMs = outOfOrdernessMs;
        this.maxTimestamp = Long.MIN_VALUE + outOfOrdernessMs + 1;
    }

    @Override
    public void onEvent(final T event, final long eventTimestamp, final WatermarkOutput output)
    {
        if (eventTimestamp > maxTimestamp)
        {
            maxTimestamp = eventTimestamp;
            final long watermark = maxTimestamp - outOfOrdernessMs - 1;
            if (watermark > emitted)
            {
                emitted = watermark;
                output.emitWatermark(new Watermark(watermark));
            }
        }
    }

    @Override
    public void onPeriodicEmit(final WatermarkOutput output)
    {
        // every watermark is emitted by onEvent
    }
}
