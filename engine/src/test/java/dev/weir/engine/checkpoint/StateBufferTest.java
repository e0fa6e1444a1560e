package dev.weir.engine.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The checkpoint buffer grows by doubling up to the largest array the JVM allows, and no further.
 * The growth rule is checked on capacities past 1 GiB without allocating them.
 */
class StateBufferTest
{
    private static final int GIB = 1 << 30;

    @Test
    void growthPastOneGibIsCappedAtTheLargestArrayInsteadOfOverflowing()
    {
        // doubling 1 GiB overflows an int: the buffer must still grow to hold what is asked, in one step
        assertEquals(StateBuffer.MAX_CAPACITY, StateBuffer.grownCapacity(GIB, GIB + 1L));
        assertEquals(StateBuffer.MAX_CAPACITY, StateBuffer.grownCapacity(GIB + GIB / 2, GIB + GIB / 2 + 8L));
        assertEquals(2 * (GIB / 2), StateBuffer.grownCapacity(GIB / 2, GIB / 2 + 1L), "below 1 GiB it doubles");
        assertEquals(StateBuffer.MAX_CAPACITY, StateBuffer.grownCapacity(StateBuffer.MAX_CAPACITY - 16, StateBuffer.MAX_CAPACITY));
    }

    @Test
    void stateUpToTheLimitIsWrittenWholeAndOneByteMoreIsAClearError()
    {
        final int limit = 1_000;
        final StateBuffer buffer = new StateBuffer(64, limit);
        for (int i = 0; i < limit / 8; i++)
        {
            buffer.putLong(i);
        }
        assertEquals(limit, buffer.written().remaining(), "growth stops at the limit, with every byte kept");
        final StateBuffer read = StateBuffer.reading(buffer.written());
        for (int i = 0; i < limit / 8; i++)
        {
            assertEquals(i, read.getLong());
        }
        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> buffer.putByte((byte)1));
        assertTrue(ex.getMessage().contains("too large for a checkpoint") && ex.getMessage().contains("1000"), ex.getMessage());
        assertEquals(limit, buffer.written().remaining(), "a refused write changes nothing");
    }
}
