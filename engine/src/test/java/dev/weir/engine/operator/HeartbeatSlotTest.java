package dev.weir.engine.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import dev.weir.engine.source.EventSlot;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.TumblingWindows;
import org.junit.jupiter.api.Test;

/**
 * A heartbeat slot moves the watermark as an event of its time would, never backwards, fires what that
 * completes with its offset as the results' source offset, and is never counted, windowed, deduped or
 * passed to a listener.
 */
class HeartbeatSlotTest
{
    @Test
    void aHeartbeatMovesTheWatermarkForwardOnlyAndReachesNoListener()
    {
        final List<String> results = new ArrayList<>();
        final List<String> late = new ArrayList<>();
        final OperatorConfiguration configuration = OperatorConfiguration.builder(TumblingWindows.of(10)).outOfOrderness(2)
            .latePolicy(LatePolicy.SIDE).dedupe(true).build();
        final WindowAssigner assigner = configuration.newAssigner();
        final WindowAggregator aggregator = configuration.newAggregator(
            r -> results.add(r.windowStart() + "," + r.count() + "," + r.sum() + " @" + r.sourceOffset()),
            e -> late.add(e.eventId() + " @" + e.offset()));
        final EventSlot slot = new EventSlot();

        slot.event(0, 1, 5, 0, 100);
        assigner.assign(slot);
        aggregator.apply(slot);
        assertEquals(3, assigner.watermark());

        slot.heartbeat(1, 1); // behind: the watermark stays
        assigner.assign(slot);
        aggregator.apply(slot);
        assertEquals(3, slot.watermarkBefore);
        assertEquals(3, slot.watermarkAfter);
        assertEquals(3, assigner.watermark());
        assertEquals(3, aggregator.watermark());
        assertEquals(1, aggregator.lastOffset(), "a checkpoint may cover the heartbeat");

        slot.heartbeat(2, 12); // wm 10: window [0,10) fires, carrying the heartbeat's offset
        assigner.assign(slot);
        aggregator.apply(slot);
        assertEquals(10, assigner.watermark());
        assertEquals(List.of("0,1,100 @2"), results);

        slot.heartbeat(3, 12); // the same time again: nothing more fires
        assigner.assign(slot);
        aggregator.apply(slot);
        assertEquals(1, results.size());

        slot.event(4, 2, 4, 0, 7); // late now, as after an event of time 12
        assigner.assign(slot);
        aggregator.apply(slot);
        assertEquals(List.of("2 @4"), late);

        slot.endOfInput(4);
        assigner.assign(slot);
        aggregator.apply(slot);
        final OperatorCounters counters = aggregator.counters();
        assertEquals(2, counters.events(), "heartbeats are not events");
        assertEquals(0, counters.duplicates());
        assertEquals(0, counters.ignored());
        assertEquals(1, counters.sideOutput());
        assertEquals(1, counters.windowsFired());
        assertTrue(aggregator.rememberedIds() <= 2, "heartbeats are never remembered ids");
    }
}
