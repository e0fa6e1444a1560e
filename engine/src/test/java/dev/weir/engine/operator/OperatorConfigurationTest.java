package dev.weir.engine.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.engine.aggregate.ApproxDistinct;
import dev.weir.engine.aggregate.Average;
import dev.weir.engine.emit.LateListener;
import dev.weir.engine.source.EventSlot;
import dev.weir.engine.state.WindowSlots;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.engine.window.WindowSpec;
import org.junit.jupiter.api.Test;

/**
 * One operator configuration: the string checkpoints store (byte for byte what {@code Pipeline.configuration()}
 * built before it), the validation done once, and the stages it builds.
 */
class OperatorConfigurationTest
{
    @Test
    void describesTheConfigurationAsCheckpointsStoreIt()
    {
        assertEquals("tumbling:10000 outOfOrderness=5000 allowedLateness=0 late=DROP dedupe=false",
            OperatorConfiguration.builder(TumblingWindows.of(10_000)).outOfOrderness(5_000).build().describe());
        assertEquals("sliding:1000/200 outOfOrderness=100 allowedLateness=300 late=SIDE dedupe=true aggregate=average",
            OperatorConfiguration.builder(SlidingWindows.of(1_000, 200)).outOfOrderness(100).allowedLateness(300)
                .latePolicy(LatePolicy.SIDE).dedupe(true).aggregation(new Average()).build().describe());
        assertEquals("session:30 outOfOrderness=0 allowedLateness=7 late=DROP dedupe=false aggregate=approx-distinct(64)",
            OperatorConfiguration.builder(SessionWindows.withGap(30)).allowedLateness(7).aggregation(new ApproxDistinct())
                .initialWindows(1 << 20).indexRingSlides(1).build().describe(), "pre-sizing and the index ring are not described");
    }

    @Test
    void validatesDurationsAndTheHorizonOnce()
    {
        final IllegalArgumentException d = assertThrows(IllegalArgumentException.class,
            () -> OperatorConfiguration.builder(TumblingWindows.of(10)).outOfOrderness(-1).build());
        assertEquals("out-of-orderness must be between 0 and " + WindowSpec.MAX_DURATION + " ms: -1", d.getMessage());
        final IllegalArgumentException a = assertThrows(IllegalArgumentException.class,
            () -> OperatorConfiguration.builder(TumblingWindows.of(10)).allowedLateness(WindowSpec.MAX_DURATION + 1).build());
        assertEquals("allowed lateness must be between 0 and " + WindowSpec.MAX_DURATION + " ms: " + (WindowSpec.MAX_DURATION + 1),
            a.getMessage());
        final IllegalArgumentException horizon = assertThrows(IllegalArgumentException.class,
            () -> OperatorConfiguration.builder(SlidingWindows.of(2, 1)).outOfOrderness(1L << 31).build());
        assertTrue(horizon.getMessage().startsWith("(out-of-orderness + allowed lateness + size) / slide must be < 2^31 windows"),
            horizon.getMessage());
        OperatorConfiguration.builder(SlidingWindows.of(2, 1)).outOfOrderness((1L << 31) - 10).build();
        OperatorConfiguration.builder(SessionWindows.withGap(1)).outOfOrderness(WindowSpec.MAX_DURATION).build(); // sessions have no horizon
        assertThrows(NullPointerException.class, () -> OperatorConfiguration.builder(null).build());
        assertThrows(NullPointerException.class, () -> OperatorConfiguration.builder(TumblingWindows.of(10)).latePolicy(null).build());
    }

    @Test
    void boundsThePreSizing()
    {
        assertEquals(OperatorConfiguration.MIN_INITIAL_WINDOWS, OperatorConfiguration.builder(TumblingWindows.of(10)).initialWindows(-5).build()
            .initialWindows());
        assertEquals(WindowSlots.MAX_CAPACITY, OperatorConfiguration.builder(TumblingWindows.of(10)).initialWindows(Integer.MAX_VALUE).build()
            .initialWindows());
    }

    @Test
    void buildsTheStagesOfItsWindows()
    {
        final OperatorConfiguration aligned = OperatorConfiguration.builder(SlidingWindows.of(10, 5)).outOfOrderness(3).build();
        assertInstanceOf(AlignedWindowAggregator.class, aligned.newAggregator(r -> { }, LateListener.NONE));
        final WindowAssigner assigner = aligned.newAssigner();
        final EventSlot slot = new EventSlot();
        slot.event(0, 1, 100, 0, 1);
        assigner.assign(slot);
        assertEquals(97, assigner.watermark(), "the assigner's watermark trails by D");
        assertEquals(2, slot.windowCount, "an event lies in size / slide windows");
        final OperatorConfiguration sessions = OperatorConfiguration.builder(SessionWindows.withGap(10)).dedupe(true).build();
        final WindowAggregator aggregator = sessions.newAggregator(r -> { }, LateListener.NONE);
        assertInstanceOf(SessionWindowAggregator.class, aggregator);
        assertTrue(aggregator.dedupe());
    }
}
