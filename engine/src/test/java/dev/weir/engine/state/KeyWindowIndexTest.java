package dev.weir.engine.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * The per-key window index against a plain map: puts, lookups and removals of random (key, slide index)
 * pairs, with a ring so small that many go to the overflow map, and key ids that make the ring grow.
 */
class KeyWindowIndexTest
{
    @Test
    void findsEveryWindowWhereverItWasPutAndForgetsRemovedOnes()
    {
        final KeyWindowIndex index = new KeyWindowIndex(2, 4, 16);
        final Map<Long, Integer> reference = new HashMap<>();
        final SplittableRandom random = new SplittableRandom(7);
        int nextSlot = 0;
        boolean overflowed = false;
        for (int step = 0; step < 200_000; step++)
        {
            final int key = random.nextInt(random.nextInt(10) == 0 ? 5_000 : 40);
            final long slide = random.nextLong(-20, 20);
            final long pair = ((long)key << 32) ^ (slide & 0xFFFF_FFFFL);
            final Integer open = reference.get(pair);
            assertEquals(open == null ? WindowSlots.NONE : (int)open, find(index, reference, key, slide), "lookup of " + key + "/" + slide);
            if (open == null)
            {
                index.put(key, slide, nextSlot);
                reference.put(pair, nextSlot++);
            }
            else if (random.nextBoolean())
            {
                index.remove(key, slide, open);
                reference.remove(pair);
            }
            overflowed |= index.hasOverflow();
        }
        assertTrue(overflowed, "the ring of 2 overflowed");
        index.clear();
        assertFalse(index.hasOverflow());
        assertEquals(WindowSlots.NONE, index.ringEntry(3, 1));
    }

    /** What the aggregator does: the ring entry if it names this window, else the overflow map. */
    private static int find(final KeyWindowIndex index, final Map<Long, Integer> reference, final int key, final long slide)
    {
        final int entry = index.ringEntry(key, slide);
        if (entry != WindowSlots.NONE && entry == reference.getOrDefault(((long)key << 32) ^ (slide & 0xFFFF_FFFFL), -2))
        {
            return entry;
        }
        return index.hasOverflow() ? index.overflowEntry(key, slide) : WindowSlots.NONE;
    }

    @Test
    void keyIdsBeyondTheRingsBoundUseTheOverflowMap()
    {
        final KeyWindowIndex index = new KeyWindowIndex(64, 16, 16); // capped at MAX_RING entries a key
        final int far = KeyWindowIndex.MAX_ENTRIES / KeyWindowIndex.MAX_RING + 5;
        index.put(far, 3, 42);
        assertEquals(WindowSlots.NONE, index.ringEntry(far, 3));
        assertTrue(index.hasOverflow());
        assertEquals(42, index.overflowEntry(far, 3));
        index.remove(far, 3, 42);
        assertFalse(index.hasOverflow());
    }
}
