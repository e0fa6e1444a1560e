package dev.weir.engine.state;

import java.util.Arrays;

import org.agrona.collections.Long2LongHashMap;

/**
 * Finds the open window of an aligned (tumbling or sliding) window kind for a (key id, slide index): the
 * index the aggregation probes for every window of every event.
 * <p>
 * Key ids are dense (0, 1, 2 … in first-seen order), so each key has its own run of {@code ring} entries
 * in one {@code int[]}, at {@code keyId * ring + (slideIndex mod ring)}: an event's windows, consecutive
 * slide indexes of one key, sit in one or two cache lines and are found without hashing. {@code ring} is
 * a power of two at least the number of slide indexes a key can have open at once (out-of-orderness plus
 * allowed lateness plus size, over the slide, plus two), up to {@link #MAX_RING}, so the windows of a key do
 * not collide in the steady state unless a key has more than {@link #MAX_RING} open. A window whose entry is taken by another open window of its key (a watermark that stalls
 * far behind), and every window of a key id beyond {@code MAX_ENTRIES / ring}, goes to an overflow map keyed
 * by the scrambled pair, as all windows did before; lookups consult it only while it holds something.
 * <p>
 * An entry names a slot; the caller checks that the slot's start is the one looked for, because an entry
 * only ever names an open window of its key (entries are removed when windows are discarded), but possibly
 * another slide index of the same ring position. The array grows with the highest key id seen (a
 * new key, not steady state), by doubling.
 * <p>
 * Not thread-safe: one owner thread, the owner of the slots.
 */
public final class KeyWindowIndex
{
    /** The most ring entries: 128 MiB of ints. Key ids at or beyond {@code MAX_ENTRIES / ring} use the overflow map only. */
    public static final int MAX_ENTRIES = 1 << 25;

    /**
     * The most entries per key: 64 bytes a key, so a key that has only one window open costs little even when
     * out-of-orderness and lateness are long against the slide; windows beyond a key's 16 go to the overflow map.
     */
    public static final int MAX_RING = 16;

    private static final long MISSING = -1;

    private final int ringBits;
    private final int ringMask;
    private final int ringKeys;
    private int[] entries;
    private final Long2LongHashMap overflow;

    /**
     * @param ringSlides     entries per key (rounded up to a power of two, at most {@value #MAX_RING}): at least the slide
     *                       indexes a key can have open at once, for the overflow map to stay empty.
     * @param initialKeys    keys to size the array for.
     * @param initialWindows windows to size the overflow map for.
     */
    public KeyWindowIndex(final long ringSlides, final int initialKeys, final int initialWindows)
    {
        final int ring = Integer.highestOneBit((int)Math.min(MAX_RING, Math.max(1, ringSlides)) * 2 - 1);
        this.ringBits = Integer.numberOfTrailingZeros(ring);
        this.ringMask = ring - 1;
        this.ringKeys = MAX_ENTRIES >> ringBits;
        this.entries = new int[Math.max(16, Integer.highestOneBit(Math.max(1, Math.min(initialKeys, ringKeys)) * 2 - 1)) << ringBits];
        Arrays.fill(entries, WindowSlots.NONE);
        this.overflow = new Long2LongHashMap(Math.max(16, initialWindows / 8), 0.65f, MISSING);
    }

    /**
     * @param keyId      the key id.
     * @param slideIndex the window's start divided by the slide.
     * @return the slot the ring entry names (an open window of this key, perhaps of another slide index), or
     *         {@link WindowSlots#NONE}.
     */
    public int ringEntry(final int keyId, final long slideIndex)
    {
        assert keyId >= 0 : "key ids are dense from 0";
        if (keyId >= ringKeys)
        {
            return WindowSlots.NONE;
        }
        final int at = (keyId << ringBits) | (int)(slideIndex & ringMask);
        return at < entries.length ? entries[at] : WindowSlots.NONE;
    }

    /**
     * @param keyId      the key id.
     * @param slideIndex the window's start divided by the slide.
     * @return the overflow map's slot for the window, or {@link WindowSlots#NONE}; only worth asking when
     *         {@link #hasOverflow()} and the ring entry did not hold it.
     */
    public int overflowEntry(final int keyId, final long slideIndex)
    {
        return (int)overflow.get(pack(keyId, slideIndex));
    }

    /**
     * @return true if some windows are in the overflow map.
     */
    public boolean hasOverflow()
    {
        return !overflow.isEmpty();
    }

    /**
     * Index a new window: in its key's ring if the entry is free, else in the overflow map.
     *
     * @param keyId      the key id.
     * @param slideIndex the window's start divided by the slide.
     * @param slot       its slot.
     */
    public void put(final int keyId, final long slideIndex, final int slot)
    {
        assert keyId >= 0 && slot >= 0 : "a key id and a slot";
        if (keyId < ringKeys)
        {
            final int at = (keyId << ringBits) | (int)(slideIndex & ringMask);
            if (at >= entries.length)
            {
                grow(keyId);
            }
            if (entries[at] == WindowSlots.NONE)
            {
                entries[at] = slot;
                return;
            }
        }
        overflow.put(pack(keyId, slideIndex), slot);
    }

    /**
     * Remove a window, wherever it is indexed.
     *
     * @param keyId      the key id.
     * @param slideIndex the window's start divided by the slide.
     * @param slot       its slot.
     */
    public void remove(final int keyId, final long slideIndex, final int slot)
    {
        assert keyId >= 0 && slot >= 0 : "a key id and a slot";
        if (keyId < ringKeys)
        {
            final int at = (keyId << ringBits) | (int)(slideIndex & ringMask);
            if (at < entries.length && entries[at] == slot)
            {
                entries[at] = WindowSlots.NONE;
                return;
            }
        }
        overflow.remove(pack(keyId, slideIndex));
    }

    /**
     * Forget every window (the capacity is kept).
     */
    public void clear()
    {
        Arrays.fill(entries, WindowSlots.NONE);
        overflow.clear();
    }

    /**
     * @return bytes held: the ring array and the overflow map's table.
     */
    public long retainedBytes()
    {
        return (long)entries.length * Integer.BYTES + (long)overflow.capacity() * 2 * Long.BYTES;
    }

    private void grow(final int keyId)
    {
        // keyId < ringKeys <= MAX_ENTRIES: the doubling cannot overflow, and keys << ringBits <= MAX_ENTRIES
        final int keys = Math.min(ringKeys, Integer.highestOneBit(keyId) * 2);
        assert keyId < keys && (long)keys << ringBits <= MAX_ENTRIES : "the ring array covers the key, within MAX_ENTRIES";
        final int old = entries.length;
        entries = Arrays.copyOf(entries, keys << ringBits);
        Arrays.fill(entries, old, entries.length, WindowSlots.NONE);
    }

    /**
     * Scramble a (key id, slide index) pair before it goes into the map. The map hashes a key by folding
     * its two halves together, under which (k, s) and (k xor d, s xor d) collide: consecutive slide
     * indexes of nearby key ids pile into the same probe runs. Multiplying by an odd constant is a
     * bijection on 64 bits, so distinct pairs stay distinct.
     */
    private static long pack(final int keyId, final long slideIndex)
    {
        return (((long)keyId << 32) | (slideIndex & 0xFFFF_FFFFL)) * 0x9E37_79B9_7F4A_7C15L;
    }
}
