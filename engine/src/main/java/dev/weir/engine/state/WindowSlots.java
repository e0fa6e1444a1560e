package dev.weir.engine.state;

import java.util.Arrays;

/**
 * The aggregates of every open (key, window), one slot each, in parallel primitive arrays.
 * <p>
 * A slot holds the window's bounds and key, its count, sum (64-bit, wrapping), min and max, how many
 * times it has fired (the next firing's version), whether its content changed since it last fired, and
 * one link used by the owner of the slot (a free list here, a per-key session chain for sessions).
 * Freed slots are reused; the arrays grow (doubling) only when every slot is in use, so steady-state
 * processing allocates nothing.
 * <p>
 * Not thread-safe: one owner thread.
 */
public final class WindowSlots
{
    /** The "no slot" value for links. */
    public static final int NONE = -1;

    private static final byte ALIVE = 1;
    private static final byte DIRTY = 2;

    private long[] start;
    private long[] end;
    private long[] count;
    private long[] sum;
    private long[] min;
    private long[] max;
    private int[] keyId;
    private int[] firings;
    private int[] link;
    private byte[] flags;
    private int freeHead = NONE;
    private int highWater;
    private int open;

    /**
     * @param initialCapacity slots to pre-allocate.
     */
    public WindowSlots(final int initialCapacity)
    {
        final int capacity = Math.max(16, initialCapacity);
        start = new long[capacity];
        end = new long[capacity];
        count = new long[capacity];
        sum = new long[capacity];
        min = new long[capacity];
        max = new long[capacity];
        keyId = new int[capacity];
        firings = new int[capacity];
        link = new int[capacity];
        flags = new byte[capacity];
    }

    /**
     * Take a free slot for a new, empty window.
     *
     * @param key         the window's key id.
     * @param windowStart inclusive start, ms.
     * @param windowEnd   exclusive end, ms.
     * @return the slot.
     */
    public int allocate(final int key, final long windowStart, final long windowEnd)
    {
        final int slot;
        if (freeHead != NONE)
        {
            slot = freeHead;
            freeHead = link[slot];
        }
        else
        {
            if (highWater == start.length)
            {
                grow();
            }
            slot = highWater++;
        }
        start[slot] = windowStart;
        end[slot] = windowEnd;
        keyId[slot] = key;
        count[slot] = 0;
        sum[slot] = 0;
        min[slot] = Long.MAX_VALUE;
        max[slot] = Long.MIN_VALUE;
        firings[slot] = 0;
        link[slot] = NONE;
        flags[slot] = ALIVE;
        open++;
        return slot;
    }

    /**
     * Take a free slot for a window restored from a checkpoint, with its aggregate and firing history.
     *
     * @param key         key id.
     * @param windowStart inclusive start.
     * @param windowEnd   exclusive end.
     * @param windowCount count.
     * @param windowSum   sum.
     * @param windowMin   min.
     * @param windowMax   max.
     * @param fired       how many times it has fired.
     * @param dirty       whether its content changed since it last fired.
     * @return the slot.
     */
    public int restore(
        final int key,
        final long windowStart,
        final long windowEnd,
        final long windowCount,
        final long windowSum,
        final long windowMin,
        final long windowMax,
        final int fired,
        final boolean dirty)
    {
        final int slot = allocate(key, windowStart, windowEnd);
        count[slot] = windowCount;
        sum[slot] = windowSum;
        min[slot] = windowMin;
        max[slot] = windowMax;
        firings[slot] = fired;
        flags[slot] = dirty ? (byte)(ALIVE | DIRTY) : ALIVE;
        return slot;
    }

    /**
     * @return one past the highest slot ever allocated: every allocated slot is below it.
     */
    public int highWater()
    {
        return highWater;
    }

    /**
     * @param slot a slot below {@link #highWater()}.
     * @return true if it holds a window.
     */
    public boolean isAllocated(final int slot)
    {
        return flags[slot] != 0;
    }

    /**
     * Free every slot (before a restore).
     */
    public void reset()
    {
        java.util.Arrays.fill(flags, 0, highWater, (byte)0);
        highWater = 0;
        freeHead = NONE;
        open = 0;
    }

    /**
     * Return a slot to the free list; its window no longer exists.
     *
     * @param slot an allocated slot.
     */
    public void free(final int slot)
    {
        flags[slot] = 0;
        link[slot] = freeHead;
        freeHead = slot;
        open--;
    }

    /**
     * Add one value to a window's aggregate and mark it changed.
     *
     * @param slot  an allocated slot.
     * @param value the event's value.
     */
    public void add(final int slot, final long value)
    {
        count[slot]++;
        sum[slot] += value;
        if (value < min[slot])
        {
            min[slot] = value;
        }
        if (value > max[slot])
        {
            max[slot] = value;
        }
        flags[slot] |= DIRTY;
    }

    /**
     * Fold the aggregate and the firing count of {@code source} into {@code target} (merging sessions),
     * mark {@code target} changed. {@code source} is left as it was; the caller frees it.
     *
     * @param target the surviving slot.
     * @param source the slot merged into it.
     */
    public void mergeInto(final int target, final int source)
    {
        count[target] += count[source];
        sum[target] += sum[source];
        min[target] = Math.min(min[target], min[source]);
        max[target] = Math.max(max[target], max[source]);
        firings[target] += firings[source];
        flags[target] |= DIRTY;
    }

    /**
     * Record that a slot fired: its version moves on and it is no longer changed.
     *
     * @param slot an allocated slot.
     * @return the version of this firing (0 for the first).
     */
    public int markFired(final int slot)
    {
        flags[slot] &= ~DIRTY;
        return firings[slot]++;
    }

    /**
     * Change the bounds of a window (a session that grew).
     *
     * @param slot        an allocated slot.
     * @param windowStart new inclusive start.
     * @param windowEnd   new exclusive end.
     */
    public void bounds(final int slot, final long windowStart, final long windowEnd)
    {
        start[slot] = windowStart;
        end[slot] = windowEnd;
    }

    /**
     * @param slot a slot.
     * @param key  a key id.
     * @param windowStart a start.
     * @param windowEnd   an end.
     * @return true if the slot is allocated and holds exactly that window.
     */
    public boolean holds(final int slot, final int key, final long windowStart, final long windowEnd)
    {
        return flags[slot] != 0 && keyId[slot] == key && start[slot] == windowStart && end[slot] == windowEnd;
    }

    /**
     * @param slot an allocated slot.
     * @return true if its content changed since it last fired (or it never fired).
     */
    public boolean isDirty(final int slot)
    {
        return (flags[slot] & DIRTY) != 0;
    }

    /** @param slot a slot. @return the window start. */
    public long start(final int slot)
    {
        return start[slot];
    }

    /** @param slot a slot. @return the window end (exclusive). */
    public long end(final int slot)
    {
        return end[slot];
    }

    /** @param slot a slot. @return the key id. */
    public int keyId(final int slot)
    {
        return keyId[slot];
    }

    /** @param slot a slot. @return the event count. */
    public long count(final int slot)
    {
        return count[slot];
    }

    /** @param slot a slot. @return the wrapping sum of values. */
    public long sum(final int slot)
    {
        return sum[slot];
    }

    /** @param slot a slot. @return the least value. */
    public long min(final int slot)
    {
        return min[slot];
    }

    /** @param slot a slot. @return the greatest value. */
    public long max(final int slot)
    {
        return max[slot];
    }

    /** @param slot a slot. @return how many times it has fired. */
    public int firings(final int slot)
    {
        return firings[slot];
    }

    /** @param slot a slot. @return the owner's link from this slot. */
    public int link(final int slot)
    {
        return link[slot];
    }

    /**
     * @param slot an allocated slot.
     * @param next the owner's link from this slot.
     */
    public void link(final int slot, final int next)
    {
        link[slot] = next;
    }

    /**
     * @return how many slots are allocated: the open windows.
     */
    public int open()
    {
        return open;
    }

    /**
     * @return how many slots the arrays can hold before growing.
     */
    public int capacity()
    {
        return start.length;
    }

    /**
     * @return bytes retained by the slot arrays.
     */
    public long retainedBytes()
    {
        return (long)start.length * (6 * Long.BYTES + 3 * Integer.BYTES + 1);
    }

    private void grow()
    {
        final int capacity = start.length * 2;
        start = Arrays.copyOf(start, capacity);
        end = Arrays.copyOf(end, capacity);
        count = Arrays.copyOf(count, capacity);
        sum = Arrays.copyOf(sum, capacity);
        min = Arrays.copyOf(min, capacity);
        max = Arrays.copyOf(max, capacity);
        keyId = Arrays.copyOf(keyId, capacity);
        firings = Arrays.copyOf(firings, capacity);
        link = Arrays.copyOf(link, capacity);
        flags = Arrays.copyOf(flags, capacity);
    }
}
