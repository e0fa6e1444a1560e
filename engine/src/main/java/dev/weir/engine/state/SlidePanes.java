package dev.weir.engine.state;

import java.util.Arrays;

/**
 * The panes of sliding windows: one slide-long aggregate (count, sum, min, max) per (key, pane index), so an event is
 * added once, to the pane its time falls in, instead of once to each of the {@code size / slide} windows that hold it;
 * a window's aggregate is its panes' combined ({@link #combineInto}).
 * <p>
 * A pane's index is its start divided by the slide, the slide index of the window that starts with it. Key ids are
 * dense, so each key has its own run of {@code ring} panes in one {@code long[]}, at {@code keyId * ring + (paneIndex
 * mod ring)}: a key's open panes, consecutive indexes, lie side by side, and a window's panes are combined from one
 * run of a few cache lines without a look-up. {@code ring} is a power of two at least the number of pane indexes a key
 * can have open at once, up to {@value #MAX_RING}; a pane whose place is taken by another open pane of its key, and
 * every pane of a key id beyond what {@value #MAX_RING_LONGS} longs hold, goes to an overflow kept as the windows are
 * ({@link WindowSlots} of slide-long windows found through a {@link KeyWindowIndex}), consulted only while it holds
 * something.
 * <p>
 * A pane is open while its count is positive: it opens with its first event ({@link #add}) and is closed by the owner
 * when the window that starts with it is discarded, the last window that holds it. The array grows with the highest key
 * id seen (a new key, not steady state), by doubling; steady state allocates nothing.
 * <p>
 * Not thread-safe: one owner thread, the aggregation stage's.
 */
public final class SlidePanes
{
    /** The most panes per key kept side by side; more go to the overflow. */
    public static final int MAX_RING = 16;

    /**
     * The most longs of side-by-side panes: 128 MiB, as much as the windows' index may take ({@link
     * KeyWindowIndex#MAX_ENTRIES} ints). Key ids beyond what they hold (with eight panes a
     * key, 419,430 keys) use the overflow only, which costs memory per open pane rather than per key.
     */
    public static final int MAX_RING_LONGS = 1 << 24;

    private static final int START = 0;
    private static final int COUNT = 1;
    private static final int SUM = 2;
    private static final int MIN = 3;
    private static final int MAX = 4;
    private static final int LONGS = 5;

    private final long slide;
    private final int ringBits;
    private final int ringMask;
    private final int ringKeys;
    private long[] ring;
    private int ringOpen;
    private final WindowSlots overflow;
    private final KeyWindowIndex overflowIndex;

    /**
     * @param slide        the slide, ms: every pane's length.
     * @param paneSpan     pane indexes a key can have open at once (rounded up to a power of two, at most
     *                     {@value #MAX_RING}), for the overflow to stay empty.
     * @param initialKeys  keys to size the array for.
     * @param initialPanes panes to size the overflow for.
     */
    public SlidePanes(final long slide, final long paneSpan, final int initialKeys, final int initialPanes)
    {
        if (slide <= 0)
        {
            throw new IllegalArgumentException("slide must be > 0: " + slide);
        }
        this.slide = slide;
        final int r = Integer.highestOneBit((int)Math.min(MAX_RING, Math.max(1, paneSpan)) * 2 - 1);
        this.ringBits = Integer.numberOfTrailingZeros(r);
        this.ringMask = r - 1;
        this.ringKeys = MAX_RING_LONGS / (r * LONGS);
        final int keys = Math.max(16, Integer.highestOneBit(Math.max(1, Math.min(initialKeys, ringKeys)) * 2 - 1));
        this.ring = new long[Math.min(keys, ringKeys) * r * LONGS];
        this.overflow = new WindowSlots(16, slide, null);
        this.overflowIndex = new KeyWindowIndex(r, 16, Math.max(16, initialPanes / 8));
    }

    /**
     * Add an event to its key's pane of an index, opening the pane if it has none open.
     *
     * @param keyId     the key id.
     * @param paneIndex the pane's start divided by the slide.
     * @param value     the event's value.
     * @return true if this event opened the pane (its first).
     */
    public boolean add(final int keyId, final long paneIndex, final long value)
    {
        final long start = paneIndex * slide;
        final int at = ringAt(keyId, paneIndex, true);
        if (at >= 0)
        {
            final long[] r = ring;
            if (r[at + COUNT] == 0 && (overflow.open() == 0 || overflowPane(keyId, paneIndex) == WindowSlots.NONE))
            {
                r[at + START] = start;
                r[at + COUNT] = 1;
                r[at + SUM] = value;
                r[at + MIN] = value;
                r[at + MAX] = value;
                ringOpen++;
                return true;
            }
            if (r[at + START] == start)
            {
                r[at + COUNT]++;
                r[at + SUM] += value;
                if (value < r[at + MIN])
                {
                    r[at + MIN] = value;
                }
                if (value > r[at + MAX])
                {
                    r[at + MAX] = value;
                }
                return false;
            }
        }
        // its place is another open pane's, or the key is beyond the array
        int pane = overflowPane(keyId, paneIndex);
        final boolean opened = pane == WindowSlots.NONE;
        if (opened)
        {
            pane = overflow.allocate(keyId, start, start + slide);
            overflowIndex.put(keyId, paneIndex, pane);
        }
        overflow.add(pane, value);
        return opened;
    }

    /**
     * @param keyId     the key id.
     * @param paneIndex the pane's start divided by the slide.
     * @return the sum of the key's open pane of that index, 0 if it has none.
     */
    public long sum(final int keyId, final long paneIndex)
    {
        final int at = ringAt(keyId, paneIndex, false);
        if (at >= 0 && ring[at + COUNT] != 0 && ring[at + START] == paneIndex * slide)
        {
            return ring[at + SUM];
        }
        final int pane = overflowPane(keyId, paneIndex);
        return pane == WindowSlots.NONE ? 0 : overflow.sum(pane);
    }

    /**
     * @param keyId     the key id.
     * @param firstPane the first pane index.
     * @param count     how many consecutive pane indexes.
     * @param except    a pane index not to count, or one outside the range.
     * @return true if the key has one of those panes open.
     */
    public boolean anyOpen(final int keyId, final long firstPane, final int count, final long except)
    {
        for (long paneIndex = firstPane, end = firstPane + count; paneIndex < end; paneIndex++)
        {
            if (paneIndex == except)
            {
                continue;
            }
            final int at = ringAt(keyId, paneIndex, false);
            if (at >= 0 && ring[at + COUNT] != 0 && ring[at + START] == paneIndex * slide || overflowPane(keyId, paneIndex) != WindowSlots.NONE)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Close a key's pane of an index, if it has one open.
     *
     * @param keyId     the key id.
     * @param paneIndex the pane's start divided by the slide.
     */
    public void close(final int keyId, final long paneIndex)
    {
        final int at = ringAt(keyId, paneIndex, false);
        if (at >= 0 && ring[at + COUNT] != 0 && ring[at + START] == paneIndex * slide)
        {
            ring[at + COUNT] = 0;
            ringOpen--;
            return;
        }
        final int pane = overflowPane(keyId, paneIndex);
        if (pane != WindowSlots.NONE)
        {
            overflowIndex.remove(keyId, paneIndex, pane);
            overflow.free(pane);
        }
    }

    /**
     * Fold the open panes of a key over consecutive indexes into a slot's aggregate (count, sum, min, max).
     *
     * @param target    slots without user aggregations.
     * @param slot      an allocated slot of {@code target}.
     * @param keyId     the key id.
     * @param firstPane the first pane index.
     * @param count     how many consecutive pane indexes.
     */
    public void combineInto(final WindowSlots target, final int slot, final int keyId, final long firstPane, final int count)
    {
        final long[] r = ring;
        final boolean overflowing = overflow.open() > 0;
        for (long paneIndex = firstPane, end = firstPane + count; paneIndex < end; paneIndex++)
        {
            final int at = ringAt(keyId, paneIndex, false);
            if (at >= 0 && r[at + COUNT] != 0 && r[at + START] == paneIndex * slide)
            {
                target.mergeAggregate(slot, r[at + COUNT], r[at + SUM], r[at + MIN], r[at + MAX]);
            }
            else if (overflowing)
            {
                final int pane = overflowPane(keyId, paneIndex);
                if (pane != WindowSlots.NONE)
                {
                    target.mergeAggregate(slot, overflow.count(pane), overflow.sum(pane), overflow.min(pane), overflow.max(pane));
                }
            }
        }
    }

    /**
     * @return the open panes.
     */
    public int open()
    {
        return ringOpen + overflow.open();
    }

    /**
     * Close every pane.
     */
    public void clear()
    {
        Arrays.fill(ring, 0);
        ringOpen = 0;
        overflow.reset();
        overflowIndex.clear();
    }

    /**
     * @return bytes held by the panes side by side and the overflow.
     */
    public long retainedBytes()
    {
        return (long)ring.length * Long.BYTES + overflow.retainedBytes() + overflowIndex.retainedBytes();
    }

    /**
     * @return where the key's place for the pane index starts in {@link #ring}, or -1 if the key is beyond it (with
     *         {@code grow}, only beyond {@link #MAX_RING_LONGS}).
     */
    private int ringAt(final int keyId, final long paneIndex, final boolean grow)
    {
        assert keyId >= 0 : "key ids are dense from 0";
        if (keyId >= ringKeys)
        {
            return -1;
        }
        final int at = ((keyId << ringBits) | (int)(paneIndex & ringMask)) * LONGS;
        if (at >= ring.length)
        {
            if (!grow)
            {
                return -1;
            }
            growFor(keyId);
        }
        return at;
    }

    private void growFor(final int keyId)
    {
        final long perKey = (long)LONGS << ringBits;
        final int keys = (int)Math.min(ringKeys, Math.max(Integer.highestOneBit(keyId) * 2L, ring.length / perKey * 2));
        assert keyId < keys && keys * perKey <= MAX_RING_LONGS : "the array covers the key, within MAX_RING_LONGS";
        ring = Arrays.copyOf(ring, (int)(keys * perKey));
    }

    private int overflowPane(final int keyId, final long paneIndex)
    {
        if (overflow.open() == 0)
        {
            return WindowSlots.NONE;
        }
        final long start = paneIndex * slide;
        final int pane = overflowIndex.ringEntry(keyId, paneIndex);
        if (pane != WindowSlots.NONE && overflow.start(pane) == start)
        {
            return pane;
        }
        if (!overflowIndex.hasOverflow())
        {
            return WindowSlots.NONE;
        }
        final int other = overflowIndex.overflowEntry(keyId, paneIndex);
        return other != WindowSlots.NONE && overflow.start(other) == start ? other : WindowSlots.NONE;
    }
}
