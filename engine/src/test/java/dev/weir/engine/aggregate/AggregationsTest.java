package dev.weir.engine.aggregate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * The example aggregations on their own state: the average's rounding, the distinct-count sketch's
 * accuracy over several sizes, and merging two sketches as if their values had gone into one.
 */
class AggregationsTest
{
    private final long[] memory = new long[64];
    private final AggregationState a = new AggregationState();
    private final AggregationState b = new AggregationState();

    @Test
    void averageRoundsTowardNegativeInfinityAndMerges()
    {
        final Average average = new Average();
        average.init(a.wrap(memory, 0, average.stateLongs()));
        assertEquals(0, average.result(a), "no values");
        average.add(a, 3);
        average.add(a, -8);
        assertEquals(Math.floorDiv(-5, 2), average.result(a));
        average.init(b.wrap(memory, 8, average.stateLongs()));
        average.add(b, 11);
        average.merge(a, b);
        assertEquals(2, average.result(a), "(3 - 8 + 11) / 3");
    }

    @Test
    void approxDistinctIsCloseAtEverySize()
    {
        final ApproxDistinct distinct = new ApproxDistinct();
        final SplittableRandom random = new SplittableRandom(3);
        for (final int n : new int[] {0, 1, 2, 10, 50, 200, 1_000, 20_000, 300_000})
        {
            distinct.init(a.wrap(memory, 0, distinct.stateLongs()));
            final long base = random.nextLong();
            for (int i = 0; i < n; i++)
            {
                distinct.add(a, base + i);
                distinct.add(a, base + random.nextInt(i + 1)); // repeats change nothing
            }
            final long estimate = distinct.result(a);
            assertTrue(Math.abs(estimate - n) <= Math.max(2, 0.4 * n), n + " distinct values estimated as " + estimate);
        }
    }

    @Test
    void mergingSketchesIsLikeAddingToOne()
    {
        final ApproxDistinct distinct = new ApproxDistinct();
        final long[] one = new long[8];
        final AggregationState all = new AggregationState().wrap(one, 0, 8);
        distinct.init(all);
        distinct.init(a.wrap(memory, 0, 8));
        distinct.init(b.wrap(memory, 8, 8));
        for (long v = 0; v < 5_000; v++)
        {
            distinct.add(v % 3 == 0 ? a : b, v * 7919);
            distinct.add(all, v * 7919);
        }
        distinct.merge(a, b);
        for (int i = 0; i < 8; i++)
        {
            assertEquals(one[i], memory[i], "register word " + i);
        }
        assertEquals(distinct.result(all), distinct.result(a));
    }

    @Test
    void stateOutsideTheAggregationsLongsIsRefused()
    {
        a.wrap(memory, 4, 2);
        assertThrows(IndexOutOfBoundsException.class, () -> a.get(2));
        assertThrows(IndexOutOfBoundsException.class, () -> a.set(-1, 0));
    }
}
