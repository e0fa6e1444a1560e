package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import dev.weir.engine.emit.LateListener;
import dev.weir.engine.operator.OperatorConfiguration;
import dev.weir.engine.operator.WindowAggregator;
import dev.weir.engine.operator.WindowAssigner;
import dev.weir.engine.source.EventSlot;
import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.TumblingWindows;
import org.junit.jupiter.api.Test;

/**
 * An endless-style stream (event time always moving on, keys recurring) must keep the engine's state
 * flat: windows are discarded once the watermark passes {@code end + A}, their slots and timers reused,
 * and nothing grows with the number of events.
 */
class BoundedStateTest
{
    private static final int KEYS = 1_000;

    @Test
    void twentyMillionEventsThroughATumblingWindowKeepTheStateFlat()
    {
        final TumblingWindows windows = TumblingWindows.of(1_000);
        final OperatorConfiguration configuration = OperatorConfiguration.builder(windows).outOfOrderness(200).allowedLateness(500)
            .initialWindows(1024).build();
        final long[] fired = {0};
        drive(configuration, configuration.newAggregator(r -> fired[0]++, LateListener.NONE), 20_000_000);
        assertTrue(fired[0] > 1_000_000, "windows fired: " + fired[0]);
    }

    @Test
    void fiveMillionEventsThroughSessionWindowsKeepTheStateFlat()
    {
        final SessionWindows windows = SessionWindows.withGap(300);
        final OperatorConfiguration configuration = OperatorConfiguration.builder(windows).outOfOrderness(200).allowedLateness(500)
            .initialWindows(1024).build();
        final long[] fired = {0};
        drive(configuration, configuration.newAggregator(r -> fired[0]++, LateListener.NONE), 5_000_000);
        assertTrue(fired[0] > 100_000, "sessions fired: " + fired[0]);
    }

    @Test
    void dedupeForgetsTheIdsOfSessionsThatStayOpenForever()
    {
        // every key has an event every 100 ms of event time (at most 250 ms apart with the disorder): with a
        // gap of 300 ms each key's one session never closes, for as long as the stream runs
        final long gap = 300;
        final long outOfOrderness = 200;
        final OperatorConfiguration configuration = OperatorConfiguration.builder(SessionWindows.withGap(gap))
            .outOfOrderness(outOfOrderness).allowedLateness(500).dedupe(true).initialWindows(1024).build();
        final WindowAggregator aggregator = configuration.newAggregator(r -> { }, LateListener.NONE);
        final WindowAssigner assigner = configuration.newAssigner();
        final SplittableRandom random = new SplittableRandom(11);
        final EventSlot slot = new EventSlot();
        final long events = 3_000_000;
        final long warmUp = events / 10;
        final long[] times = new long[64];
        long injected = 0;
        long retainedAtWarmUp = -1;
        int maxRemembered = 0;
        for (long i = 0; i < events; i++)
        {
            final long time = 1_000_000 + i / 10 - random.nextInt(150);
            times[(int)(i & 63)] = time;
            slot.event(i, i, time, (int)(i % KEYS), 1);
            assigner.assign(slot);
            aggregator.apply(slot);
            if (i % 100 == 99)
            {
                // a retry of an event 50 back: its session is open and would count it again
                final long original = i - 50;
                slot.event(i, original, times[(int)(original & 63)], (int)(original % KEYS), 1);
                assigner.assign(slot);
                aggregator.apply(slot);
                injected++;
            }
            if (i == warmUp)
            {
                retainedAtWarmUp = aggregator.retainedBytes();
            }
            maxRemembered = Math.max(maxRemembered, aggregator.rememberedIds());
        }
        assertEquals(KEYS, aggregator.openWindows(), "one session per key, open all along");
        assertEquals(injected, aggregator.counters().duplicates(), "every retry that could still change its session is caught");
        // ids of events within gap + A + D (+ disorder) of the newest event time: about 1,150 ms at 10 events per ms
        assertTrue(maxRemembered < 20_000, "remembered ids stay bounded: " + maxRemembered);
        assertEquals(retainedAtWarmUp, aggregator.retainedBytes(), "retained state does not grow after warm-up");

        slot.endOfInput(events - 1);
        assigner.assign(slot);
        aggregator.apply(slot);
        assertEquals(0, aggregator.openWindows(), "every session fires and is discarded at the end of input");
    }

    private static void drive(final OperatorConfiguration configuration, final WindowAggregator aggregator, final long events)
    {
        final WindowAssigner assigner = configuration.newAssigner();
        final SplittableRandom random = new SplittableRandom(7);
        final EventSlot slot = new EventSlot();
        final long warmUp = events / 10;
        int maxOpenAfterWarmUp = 0;
        long retainedAtWarmUp = -1;
        int openAtWarmUp = -1;
        for (long i = 0; i < events; i++)
        {
            // 10 events per ms of event time, up to 150 ms out of order; a few 2 s behind (late)
            final long time = 1_000_000 + i / 10 - random.nextInt(150) - (random.nextInt(10_000) == 0 ? 2_000 : 0);
            slot.event(i, i, time, random.nextInt(KEYS), random.nextInt(1_000));
            assigner.assign(slot);
            aggregator.apply(slot);
            if (i == warmUp)
            {
                retainedAtWarmUp = aggregator.retainedBytes();
                openAtWarmUp = aggregator.openWindows();
            }
            else if (i > warmUp)
            {
                maxOpenAfterWarmUp = Math.max(maxOpenAfterWarmUp, aggregator.openWindows());
            }
        }
        // With D = 200 and A = 500, a key has windows open over at most ~2 s of event time.
        assertTrue(openAtWarmUp > 0 && openAtWarmUp <= 4 * KEYS, "open at warm-up: " + openAtWarmUp);
        assertTrue(maxOpenAfterWarmUp <= 4 * KEYS, "open windows stay bounded: " + maxOpenAfterWarmUp);
        assertEquals(retainedAtWarmUp, aggregator.retainedBytes(), "retained state does not grow after warm-up");

        slot.endOfInput(events - 1);
        assigner.assign(slot);
        aggregator.apply(slot);
        assertEquals(0, aggregator.openWindows(), "every window is discarded at the end of input");
    }
}
