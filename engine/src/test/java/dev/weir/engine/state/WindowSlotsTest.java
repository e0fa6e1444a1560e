package dev.weir.engine.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Window slots in both layouts: 8 longs for windows of any length, 7 when every window has the same
 * length and the end follows from the start.
 */
class WindowSlotsTest
{
    @ParameterizedTest
    @ValueSource(longs = {0, 10})
    void aggregatesVersionsAndFlagsRoundTrip(final long fixedLength)
    {
        final WindowSlots slots = new WindowSlots(16, fixedLength, null);
        final int slot = slots.allocate(7, -10, 0);
        assertEquals(-10, slots.start(slot));
        assertEquals(0, slots.end(slot));
        assertEquals(7, slots.keyId(slot));
        slots.add(slot, 5);
        slots.add(slot, -3);
        assertEquals(2, slots.count(slot));
        assertEquals(2, slots.sum(slot));
        assertEquals(-3, slots.min(slot));
        assertEquals(5, slots.max(slot));
        assertTrue(slots.isDirty(slot));
        assertEquals(0, slots.markFired(slot));
        assertFalse(slots.isDirty(slot));
        assertEquals(1, slots.markFired(slot));
        assertTrue(slots.holds(slot, 7, -10, 0));
        assertFalse(slots.holds(slot, 7, -10, 1));
        assertEquals(fixedLength > 0 ? 7 * 8 * 16 : 8 * 8 * 16, slots.retainedBytes());
    }

    @Test
    void freedSlotsAreReusedAndGrowthKeepsContent()
    {
        final WindowSlots slots = new WindowSlots(16, 100, null);
        for (int i = 0; i < 40; i++)
        {
            final int slot = slots.allocate(i, i * 100L, i * 100L + 100);
            slots.add(slot, i);
        }
        assertEquals(40, slots.open());
        assertEquals(39, slots.max(39));
        assertEquals(3_900, slots.start(39));
        assertEquals(4_000, slots.end(39));
        slots.free(3);
        assertEquals(3, slots.allocate(99, 0, 100), "the freed slot comes back first");
        assertEquals(40, slots.open());
    }

    @Test
    void aFixedLengthIsEnforced()
    {
        final WindowSlots slots = new WindowSlots(16, 10, null);
        assertThrows(IllegalArgumentException.class, () -> slots.allocate(1, 0, 11));
        final int slot = slots.allocate(1, 0, 10);
        assertThrows(IllegalStateException.class, () -> slots.bounds(slot, 0, 20));
    }

    @Test
    void sessionsChangeBounds()
    {
        final WindowSlots slots = new WindowSlots(16, 0, null);
        final int slot = slots.allocate(1, 0, 10);
        slots.bounds(slot, -5, 25);
        assertEquals(-5, slots.start(slot));
        assertEquals(25, slots.end(slot));
    }

    @Test
    void theMostSlotsOfAnyStrideFitOneArray()
    {
        // 2^27 slots of the widest stride (8 longs and a 32-long user aggregation) would need 5.4 G longs
        for (int stride = 7; stride <= 8 + dev.weir.engine.aggregate.Aggregation.MAX_STATE_LONGS; stride++)
        {
            final int most = WindowSlots.maxCapacity(stride);
            assertTrue((long)most * stride <= WindowSlots.MAX_ARRAY_LONGS, "stride " + stride + ": " + most + " slots fit");
            assertTrue(most == WindowSlots.MAX_CAPACITY || (long)(most + 1) * stride > WindowSlots.MAX_ARRAY_LONGS,
                "stride " + stride + ": no more slots than fit, none fewer");
        }
        assertEquals(WindowSlots.MAX_CAPACITY, WindowSlots.maxCapacity(8), "windows without a user aggregation: 2^27");
        assertEquals(WindowSlots.MAX_ARRAY_LONGS / 40, WindowSlots.maxCapacity(40));
    }

    @Test
    void addAndMergeTellWhenTheSumWrapsAndKeepTheWrappedSum()
    {
        final WindowSlots slots = new WindowSlots(16, 0, null);
        final int a = slots.allocate(1, 0, 10);
        final int b = slots.allocate(1, 20, 30);
        final int c = slots.allocate(1, 40, 50);
        assertFalse(slots.add(a, Long.MAX_VALUE));
        assertTrue(slots.add(a, 1), "MAX + 1");
        assertEquals(Long.MIN_VALUE, slots.sum(a), "kept as wrapped");
        assertFalse(slots.add(b, -1));
        assertFalse(slots.add(c, 5));
        assertFalse(slots.mergeInto(c, b), "5 + -1");
        assertTrue(slots.mergeInto(a, b), "MIN + -1");
        assertEquals(Long.MAX_VALUE, slots.sum(a), "kept as wrapped");
        assertFalse(slots.add(a, Long.MIN_VALUE), "MAX + MIN");
        assertTrue(slots.add(a, Long.MIN_VALUE), "-1 + MIN");
    }
}
