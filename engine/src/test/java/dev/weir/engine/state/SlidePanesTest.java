package dev.weir.engine.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Panes side by side, in the overflow when their place is another open pane's, and in the overflow only for key ids
 * beyond the array: each found, summed, combined and closed alike.
 */
class SlidePanesTest
{
    private static final long SLIDE = 2_000;

    @Test
    void panesInTheirKeysRunInTheOverflowAndBeyondTheArrayAreAlike()
    {
        final SlidePanes panes = new SlidePanes(SLIDE, 4, 16, 64);
        final int beyond = SlidePanes.MAX_RING_LONGS / (4 * 5) + 3; // past the most keys the array holds at 4 panes a key
        for (final int key : new int[] {0, 5, 1_000, beyond})
        {
            assertTrue(panes.add(key, 10, 7), "the first event opens the pane");
            assertFalse(panes.add(key, 10, -3));
            assertTrue(panes.add(key, 14, 100), "pane 14's place is pane 10's: the overflow");
            assertTrue(panes.add(key, 11, 1));
            assertEquals(4, panes.sum(key, 10));
            assertEquals(100, panes.sum(key, 14));
            assertEquals(0, panes.sum(key, 12));
            assertTrue(panes.anyOpen(key, 12, 3, Long.MIN_VALUE));
            assertFalse(panes.anyOpen(key, 12, 3, 14));

            final WindowSlots row = new WindowSlots(16, 5 * SLIDE, null);
            final int slot = row.allocate(key, 10 * SLIDE, 15 * SLIDE);
            panes.combineInto(row, slot, key, 10, 5);
            assertEquals(4, row.count(slot));
            assertEquals(105, row.sum(slot));
            assertEquals(-3, row.min(slot));
            assertEquals(100, row.max(slot));

            panes.close(key, 10);
            assertEquals(0, panes.sum(key, 10));
            assertFalse(panes.add(key, 14, 1), "pane 14 stays in the overflow while open, though its place is free now");
            assertEquals(101, panes.sum(key, 14));
            assertTrue(panes.add(key, 18, 9), "pane 18 takes the free place");
            assertEquals(9, panes.sum(key, 18));
            assertEquals(101, panes.sum(key, 14));
            panes.close(key, 14);
            panes.close(key, 18);
            panes.close(key, 11);
            assertEquals(0, panes.open(), "key " + key);
        }
    }
}
