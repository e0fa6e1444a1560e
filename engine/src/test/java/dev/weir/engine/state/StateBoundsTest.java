package dev.weir.engine.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.engine.aggregate.Aggregation;
import org.junit.jupiter.api.Test;

/**
 * Every state structure that grows stops at a bound its sizes fit, with an exception rather than an int
 * overflow (a negative array size, or an index that wraps).
 */
class StateBoundsTest
{
    @Test
    void theFiringScheduleGrowsToTheLongestArrayThenRefuses()
    {
        assertEquals(32, FiringSchedule.grownCapacity(16));
        assertEquals(FiringSchedule.MAX_CAPACITY, FiringSchedule.grownCapacity(3 << 29), "3 * 2^30 does not fit: capped");
        assertThrows(IllegalStateException.class, () -> FiringSchedule.grownCapacity(FiringSchedule.MAX_CAPACITY));
        assertTrue(WindowSlots.MAX_CAPACITY <= FiringSchedule.MAX_SLOT, "every slot fits a timer");
    }

    @Test
    void theDuplicateFilterGrowsToItsBoundThenRefuses()
    {
        assertEquals(DuplicateFilter.MAX_CAPACITY, DuplicateFilter.grownCapacity(DuplicateFilter.MAX_CAPACITY / 2));
        assertThrows(IllegalStateException.class, () -> DuplicateFilter.grownCapacity(DuplicateFilter.MAX_CAPACITY));
    }

    @Test
    void startChainsGrowToTheMostWindowsThenRefuse()
    {
        assertEquals(WindowSlots.MAX_CAPACITY, StartChains.grownCapacity(WindowSlots.MAX_CAPACITY / 2));
        assertThrows(IllegalStateException.class, () -> StartChains.grownCapacity(WindowSlots.MAX_CAPACITY));
    }

    @Test
    void slotsOfAnyStrideFitOneArray()
    {
        for (int stride = 7; stride <= 8 + Aggregation.MAX_STATE_LONGS; stride++)
        {
            assertTrue((long)WindowSlots.maxCapacity(stride) * stride <= WindowSlots.MAX_ARRAY_LONGS, "stride " + stride);
        }
    }
}
