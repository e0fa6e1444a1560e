package dev.weir.engine.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * The delay histogram: the out-of-orderness it suggests is the smallest readable bucket bound that at least the
 * share asked for of the delays recorded are within, checked by hand on a small stream and against a brute-force
 * sort on seeded streams.
 */
class EventDelaysTest
{
    /** The bucket bounds as the class documents them, ms. */
    private static final long[] READABLE = {
        0, 1, 2, 5, 10, 20, 50, 100, 200, 300, 500,
        1_000, 2_000, 3_000, 4_000, 5_000, 6_000, 8_000, 10_000, 15_000, 20_000, 30_000, 45_000,
        60_000, 120_000, 180_000, 300_000, 600_000, 900_000, 1_200_000, 1_800_000, 2_700_000,
        3_600_000, 7_200_000, 10_800_000, 14_400_000, 21_600_000, 28_800_000, 43_200_000,
        86_400_000, 172_800_000, 259_200_000, 604_800_000, 1_209_600_000, 2_592_000_000L, 7_776_000_000L, 31_536_000_000L};

    @Test
    void suggestsTheReadableBoundThatKeepsTheShareOnTime()
    {
        final EventDelays delays = new EventDelays();
        assertEquals(-1, delays.outOfOrdernessKeeping(99), "no events: nothing to suggest");
        for (int i = 0; i < 97; i++)
        {
            delays.record(0); // in order
        }
        delays.record(-250); // newer than every event before it: no delay
        delays.record(1_500); // 1.5 s behind: kept by 2s
        delays.record(3_500); // 3.5 s behind: kept by 4s
        assertEquals(100, delays.events());
        assertEquals(3_500, delays.longest());
        assertEquals(0, delays.outOfOrdernessKeeping(98), "98 of 100 are not behind at all");
        assertEquals(2_000, delays.outOfOrdernessKeeping(99), "the 99th smallest delay is 1.5 s: 2s keeps it");
        assertEquals(4_000, delays.outOfOrdernessKeeping(100), "3.5 s: 4s keeps every event");
    }

    @Test
    void roundsADelayOnABoundToThatBoundAndBeyondTheLastToWholeDays()
    {
        final EventDelays delays = new EventDelays();
        delays.record(30_000);
        assertEquals(30_000, delays.outOfOrdernessKeeping(100), "a delay equal to a bound is kept by it");
        delays.record(30_001);
        assertEquals(45_000, delays.outOfOrdernessKeeping(100));
        final EventDelays beyond = new EventDelays();
        beyond.record(400L * 86_400_000 + 1);
        assertEquals(401L * 86_400_000, beyond.outOfOrdernessKeeping(100));
    }

    @Test
    void agreesWithABruteForceSortOnSeededStreams()
    {
        for (int seed = 1; seed <= 200; seed++)
        {
            final SplittableRandom random = new SplittableRandom(seed);
            final int n = 1 + random.nextInt(2_000);
            final long spread = new long[] {10, 1_000, 60_000, 86_400_000, 40_000_000_000L}[random.nextInt(5)];
            final long[] times = new long[n];
            long newest = Long.MIN_VALUE;
            final long[] expectedDelays = new long[n];
            final EventDelays delays = new EventDelays();
            for (int i = 0; i < n; i++)
            {
                times[i] = 1_000_000_000_000L + i * 100L - (random.nextInt(10) < 2 ? random.nextLong(spread) : 0);
                expectedDelays[i] = newest == Long.MIN_VALUE ? 0 : Math.max(0, newest - times[i]);
                delays.record(newest == Long.MIN_VALUE ? 0 : newest - times[i]);
                newest = Math.max(newest, times[i]);
            }
            Arrays.sort(expectedDelays);
            for (final int percent : new int[] {50, 90, 99, 100})
            {
                final long exact = expectedDelays[(int)((n * (long)percent + 99) / 100) - 1];
                assertEquals(readableAtLeast(exact, expectedDelays[n - 1]), delays.outOfOrdernessKeeping(percent), "seed " + seed + ", " + percent + "%");
            }
            assertEquals(expectedDelays[n - 1], delays.longest(), "seed " + seed);
        }
    }

    @Test
    void refusesAShareOutsideOneToAHundred()
    {
        assertThrows(IllegalArgumentException.class, () -> new EventDelays().outOfOrdernessKeeping(0));
        assertThrows(IllegalArgumentException.class, () -> new EventDelays().outOfOrdernessKeeping(101));
    }

    /** The smallest readable bound at least {@code delay}; beyond 365 days, the longest delay rounded up to whole days. */
    private static long readableAtLeast(final long delay, final long longest)
    {
        for (final long bound : READABLE)
        {
            if (bound >= delay)
            {
                return bound;
            }
        }
        return (longest + 86_399_999) / 86_400_000 * 86_400_000;
    }
}
