package dev.weir.engine.state;

import java.util.Arrays;

/**
 * The pending timers of open windows, earliest first: a binary min-heap in primitive arrays.
 * <p>
 * Each entry is a time, a kind ({@link #FIRE} at the window end, {@link #CLEANUP} at end plus allowed
 * lateness), and the identity of the window it is for: start, key id and the slot holding it. Entries
 * are ordered by (time, kind, window start, key id), so timers that fall due together are handled in a
 * deterministic order: fire before discard, then by window start, then by key (first-seen order).
 * <p>
 * Entries are never removed early: an owner whose window changed or went away leaves the old entry,
 * and checks on {@link #pollSlot()} that the slot still holds the window the entry names.
 * The arrays grow (doubling) only when full, to at most {@link #MAX_CAPACITY} entries; steady state
 * allocates nothing.
 * <p>
 * Not thread-safe: one owner thread.
 */
public final class FiringSchedule
{
    /** A timer that fires the window. */
    public static final int FIRE = 0;
    /** A timer that discards the window's state. */
    public static final int CLEANUP = 1;

    /** The most pending timers: the longest array the JVM allocates. */
    public static final int MAX_CAPACITY = Integer.MAX_VALUE - 8;

    /** The highest slot a timer can name: a slot is packed with the kind into one int. */
    public static final int MAX_SLOT = (1 << 30) - 1;

    private long[] time;
    private long[] start;
    private int[] key;
    private int[] slotKind;
    private int size;

    private long polledTime;
    private long polledStart;
    private int polledKey;
    private int polledKind;

    /**
     * @param initialCapacity entries to pre-allocate (at least 16, at most {@link #MAX_CAPACITY}).
     */
    public FiringSchedule(final int initialCapacity)
    {
        final int capacity = Math.min(MAX_CAPACITY, Math.max(16, initialCapacity));
        time = new long[capacity];
        start = new long[capacity];
        key = new int[capacity];
        slotKind = new int[capacity];
    }

    /**
     * Schedule a timer.
     *
     * @param at          when it falls due (the watermark it waits for).
     * @param kind        {@link #FIRE} or {@link #CLEANUP}.
     * @param windowStart the window's start.
     * @param keyId       the window's key id.
     * @param slot        the slot that holds the window now, 0 to {@link #MAX_SLOT}.
     * @throws IllegalStateException if {@link #MAX_CAPACITY} timers are pending.
     */
    public void schedule(final long at, final int kind, final long windowStart, final int keyId, final int slot)
    {
        assert (kind == FIRE || kind == CLEANUP) && slot >= 0 && slot <= MAX_SLOT : "a kind and a slot that pack into one int";
        if (size == time.length)
        {
            grow();
        }
        int i = size++;
        final int packed = (slot << 1) | kind;
        while (i > 0)
        {
            final int parent = (i - 1) >>> 1;
            if (!less(at, kind, windowStart, keyId, parent))
            {
                break;
            }
            copy(parent, i);
            i = parent;
        }
        time[i] = at;
        start[i] = windowStart;
        key[i] = keyId;
        slotKind[i] = packed;
    }

    /**
     * @param watermark the current watermark.
     * @return true if the earliest timer is due: its time is {@code <= watermark}.
     */
    public boolean hasDue(final long watermark)
    {
        return size > 0 && time[0] <= watermark;
    }

    /**
     * Remove the earliest timer; its fields are then read with {@link #polledTime()} and friends.
     *
     * @return the slot it names.
     */
    public int pollSlot()
    {
        assert size > 0 : "a timer to poll";
        polledTime = time[0];
        polledStart = start[0];
        polledKey = key[0];
        polledKind = slotKind[0] & 1;
        final int slot = slotKind[0] >>> 1;
        final int last = --size;
        if (last > 0)
        {
            siftDown(time[last], start[last], key[last], slotKind[last]);
        }
        return slot;
    }

    /** @return the time of the last polled timer. */
    public long polledTime()
    {
        return polledTime;
    }

    /** @return the window start of the last polled timer. */
    public long polledStart()
    {
        return polledStart;
    }

    /** @return the key id of the last polled timer. */
    public int polledKey()
    {
        return polledKey;
    }

    /** @return the kind of the last polled timer. */
    public int polledKind()
    {
        return polledKind;
    }

    /**
     * Remove every timer.
     */
    public void clear()
    {
        size = 0;
    }

    /** @return pending timers, including stale ones. */
    public int size()
    {
        return size;
    }

    /** @return bytes retained by the heap arrays. */
    public long retainedBytes()
    {
        return (long)time.length * (2 * Long.BYTES + 2 * Integer.BYTES);
    }

    private void siftDown(final long t, final long s, final int k, final int sk)
    {
        int i = 0;
        final int half = size >>> 1;
        while (i < half)
        {
            int child = 2 * i + 1;
            final int right = child + 1;
            if (right < size && lessAt(right, child))
            {
                child = right;
            }
            if (!lessAt(child, t, sk & 1, s, k))
            {
                break;
            }
            copy(child, i);
            i = child;
        }
        time[i] = t;
        start[i] = s;
        key[i] = k;
        slotKind[i] = sk;
    }

    private boolean less(final long t, final int kind, final long s, final int k, final int j)
    {
        return before(t, kind, s, k, time[j], slotKind[j] & 1, start[j], key[j]);
    }

    private boolean lessAt(final int i, final int j)
    {
        return less(time[i], slotKind[i] & 1, start[i], key[i], j);
    }

    private boolean lessAt(final int i, final long t, final int kind, final long s, final int k)
    {
        return before(time[i], slotKind[i] & 1, start[i], key[i], t, kind, s, k);
    }

    /** The order of timers: (time, kind, window start, key id). */
    private static boolean before(
        final long t1, final int kind1, final long s1, final int k1, final long t2, final int kind2, final long s2, final int k2)
    {
        if (t1 != t2)
        {
            return t1 < t2;
        }
        if (kind1 != kind2)
        {
            return kind1 < kind2;
        }
        if (s1 != s2)
        {
            return s1 < s2;
        }
        return k1 < k2;
    }

    /**
     * @param capacity the capacity now.
     * @return the capacity to grow to: double, at most {@link #MAX_CAPACITY}.
     * @throws IllegalStateException if the capacity is {@link #MAX_CAPACITY} already.
     */
    static int grownCapacity(final int capacity)
    {
        if (capacity >= MAX_CAPACITY)
        {
            throw new IllegalStateException("more than " + MAX_CAPACITY + " pending timers");
        }
        return (int)Math.min(MAX_CAPACITY, 2L * capacity);
    }

    private void copy(final int from, final int to)
    {
        time[to] = time[from];
        start[to] = start[from];
        key[to] = key[from];
        slotKind[to] = slotKind[from];
    }

    private void grow()
    {
        final int capacity = grownCapacity(time.length);
        time = Arrays.copyOf(time, capacity);
        start = Arrays.copyOf(start, capacity);
        key = Arrays.copyOf(key, capacity);
        slotKind = Arrays.copyOf(slotKind, capacity);
    }
}
