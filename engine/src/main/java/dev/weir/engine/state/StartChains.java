package dev.weir.engine.state;

import java.util.Arrays;

import org.agrona.collections.Long2LongHashMap;

/**
 * The open windows of aligned (tumbling or sliding) windows grouped by window start: one chain per start,
 * linked through the slots' own link field ({@link WindowSlots#link(int, int)}), so grouping costs no
 * memory per window. Every window of one start ends at the same instant, so the chain carries the one
 * timer for all of them: the firing schedule holds one entry per start, not one per window, and a window
 * costs no timer state.
 * <p>
 * A chain keeps its windows in the order they were added, which depends only on the journal; a restore
 * that adds windows in the order {@link #forEachWindow(WindowVisitor)} visited them rebuilds the same
 * chains. The map from start to chain and the chain table hold one entry per live start (a few: the
 * starts within out-of-orderness plus allowed lateness plus size of the watermark); they grow only when a
 * new maximum of live starts is reached, so steady state allocates nothing.
 * <p>
 * A chain may also hold pending windows: windows without a slot yet (sliding panes keep their aggregates until
 * they fire), named by key id only, in the order they were added ({@link #addPending}); they were all opened after
 * the chain's windows with slots, so the chain's order is its slots', then its pending windows'. The owner gives
 * them slots, or discards them, when the chain fires ({@link #clearPending}). A chain's list of them keeps its
 * capacity when the chain is freed and its id reused, so steady state allocates nothing.
 * <p>
 * Not thread-safe: one owner thread, the owner of the slots.
 */
public final class StartChains
{
    /** Visits windows. */
    @FunctionalInterface
    public interface WindowVisitor
    {
        /**
         * @param slot a window's slot.
         */
        void visit(int slot);
    }

    private static final long MISSING = -1;

    private final WindowSlots slots;
    private final Long2LongHashMap chainOfStart = new Long2LongHashMap(64, 0.5f, MISSING);
    private long[] start = new long[16];
    private int[] head = new int[16];
    private int[] tail = new int[16];
    private int[] nextFree = new int[16];
    private int[][] pendingKeys = new int[16][];
    private int[] pendingCount = new int[16];
    private long pendingWindows;
    private int freeHead = WindowSlots.NONE;
    private int highWater;

    /**
     * @param slots the slots whose link field the chains use.
     */
    public StartChains(final WindowSlots slots)
    {
        this.slots = slots;
    }

    /**
     * Append a new window to the chain of its start.
     *
     * @param slot        the window's slot, just allocated (its link is free).
     * @param windowStart the window's start.
     * @return the chain's id if this window opened a new chain (the caller schedules its timer), else -1.
     */
    public int add(final int slot, final long windowStart)
    {
        assert slots.isAllocated(slot) : "a window just allocated";
        slots.link(slot, WindowSlots.NONE);
        final int existing = (int)chainOfStart.get(windowStart);
        if (existing != MISSING)
        {
            if (head[existing] == WindowSlots.NONE)
            {
                head[existing] = slot;
            }
            else
            {
                slots.link(tail[existing], slot);
            }
            tail[existing] = slot;
            return -1;
        }
        final int chain = allocate();
        chainOfStart.put(windowStart, chain);
        start[chain] = windowStart;
        head[chain] = slot;
        tail[chain] = slot;
        return chain;
    }

    /**
     * Append a pending window (no slot yet) to the chain of its start.
     *
     * @param keyId       the window's key id.
     * @param windowStart the window's start.
     * @return the chain's id if this window opened a new chain (the caller schedules its timer), else -1.
     */
    public int addPending(final int keyId, final long windowStart)
    {
        final int existing = (int)chainOfStart.get(windowStart);
        final int chain;
        if (existing != MISSING)
        {
            chain = existing;
        }
        else
        {
            chain = allocate();
            chainOfStart.put(windowStart, chain);
            start[chain] = windowStart;
            head[chain] = WindowSlots.NONE;
            tail[chain] = WindowSlots.NONE;
        }
        int[] keys = pendingKeys[chain];
        final int n = pendingCount[chain];
        if (keys == null || n == keys.length)
        {
            keys = keys == null ? new int[64] : Arrays.copyOf(keys, 2 * n);
            pendingKeys[chain] = keys;
        }
        keys[n] = keyId;
        pendingCount[chain] = n + 1;
        pendingWindows++;
        return existing != MISSING ? -1 : chain;
    }

    /**
     * @param chain a live chain id.
     * @return how many pending windows it holds.
     */
    public int pendingCount(final int chain)
    {
        assert used(chain) : "a chain in use";
        return pendingCount[chain];
    }

    /**
     * @param chain a live chain id.
     * @param index 0 .. {@link #pendingCount(int)} - 1, in the order they were added.
     * @return that pending window's key id.
     */
    public int pendingKey(final int chain, final int index)
    {
        assert used(chain) && index < pendingCount[chain] : "a pending window of a chain in use";
        return pendingKeys[chain][index];
    }

    /**
     * Forget a chain's pending windows: the owner gave them slots ({@link #add}) or discarded them.
     *
     * @param chain a live chain id.
     */
    public void clearPending(final int chain)
    {
        pendingWindows -= pendingCount[chain];
        pendingCount[chain] = 0;
    }

    /**
     * @return the pending windows of every chain.
     */
    public long pendingWindows()
    {
        return pendingWindows;
    }

    /**
     * @return one past the highest chain id ever used: every live chain's id is below it.
     */
    public int chainIds()
    {
        return highWater;
    }

    /**
     * @param chain a chain id below {@link #chainIds()}.
     * @return true if it is live: it holds a window, with a slot or pending.
     */
    public boolean isLive(final int chain)
    {
        return live(chain);
    }

    /**
     * @param chain a chain id.
     * @return the start its windows share.
     */
    public long start(final int chain)
    {
        return start[chain];
    }

    /**
     * @param chain       a chain id, perhaps freed.
     * @param windowStart a start.
     * @return true if the chain is live and holds the windows of that start.
     */
    public boolean holds(final int chain, final long windowStart)
    {
        return live(chain) && start[chain] == windowStart;
    }

    /**
     * @param chain a live chain id.
     * @return its first window's slot; follow {@link WindowSlots#link(int)} for the next, to {@link WindowSlots#NONE}.
     */
    public int head(final int chain)
    {
        assert used(chain) : "a chain in use";
        return head[chain];
    }

    /**
     * Forget a chain whose windows have all been freed.
     *
     * @param chain a live chain id.
     */
    public void free(final int chain)
    {
        assert used(chain) : "a chain in use, freed once";
        chainOfStart.remove(start[chain]);
        clearPending(chain);
        head[chain] = WindowSlots.NONE;
        tail[chain] = WindowSlots.NONE;
        nextFree[chain] = freeHead;
        freeHead = chain;
    }

    /**
     * Visit every window of every live chain, chain by chain, each chain in order.
     *
     * @param visitor the visitor.
     */
    public void forEachWindow(final WindowVisitor visitor)
    {
        for (int chain = 0; chain < highWater; chain++)
        {
            for (int slot = head[chain]; slot != WindowSlots.NONE; slot = slots.link(slot))
            {
                visitor.visit(slot);
            }
        }
    }

    /**
     * Forget every chain (before a restore).
     */
    public void clear()
    {
        chainOfStart.clear();
        Arrays.fill(head, 0, highWater, WindowSlots.NONE);
        Arrays.fill(pendingCount, 0, highWater, 0);
        pendingWindows = 0;
        highWater = 0;
        freeHead = WindowSlots.NONE;
    }

    /**
     * @return bytes retained by the chain table and the map from start to chain.
     */
    public long retainedBytes()
    {
        long pending = 0;
        for (int chain = 0; chain < highWater; chain++)
        {
            pending += pendingKeys[chain] == null ? 0 : (long)pendingKeys[chain].length * Integer.BYTES;
        }
        return (long)start.length * (Long.BYTES + 4 * Integer.BYTES) + (long)chainOfStart.capacity() * 2 * Long.BYTES + pending;
    }

    /** For asserts. */
    private boolean used(final int chain)
    {
        return chain >= 0 && chain < highWater && chainOfStart.get(start[chain]) == chain;
    }

    /** A chain that holds a window, with a slot or pending. */
    private boolean live(final int chain)
    {
        return chain >= 0 && chain < highWater && (head[chain] != WindowSlots.NONE || pendingCount[chain] > 0);
    }

    /**
     * Every live chain holds a window, so there are never more chains than {@link WindowSlots#MAX_CAPACITY}:
     * doubling from 16 stays a power of two no greater than that, and a chain id fits a timer's slot
     * ({@link FiringSchedule#MAX_SLOT}).
     *
     * @param capacity the chain table's capacity now, a power of two.
     * @return the capacity to grow to: double.
     * @throws IllegalStateException if the capacity is {@link WindowSlots#MAX_CAPACITY} already.
     */
    static int grownCapacity(final int capacity)
    {
        if (capacity >= WindowSlots.MAX_CAPACITY)
        {
            throw new IllegalStateException("more than " + WindowSlots.MAX_CAPACITY + " window starts open");
        }
        return capacity * 2;
    }

    private int allocate()
    {
        if (freeHead != WindowSlots.NONE)
        {
            final int chain = freeHead;
            freeHead = nextFree[chain];
            return chain;
        }
        if (highWater == start.length)
        {
            final int capacity = grownCapacity(start.length);
            start = Arrays.copyOf(start, capacity);
            head = Arrays.copyOf(head, capacity);
            tail = Arrays.copyOf(tail, capacity);
            nextFree = Arrays.copyOf(nextFree, capacity);
            pendingKeys = Arrays.copyOf(pendingKeys, capacity);
            pendingCount = Arrays.copyOf(pendingCount, capacity);
        }
        return highWater++;
    }
}
