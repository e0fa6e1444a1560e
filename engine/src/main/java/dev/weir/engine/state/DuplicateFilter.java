package dev.weir.engine.state;

import org.agrona.BitUtil;
import org.agrona.collections.LongHashSet;

/**
 * The event ids seen recently, to drop duplicates, with memory bounded by event time.
 * <p>
 * Membership is a primitive open-addressing set of ids. Alongside it, every remembered id is kept in a
 * FIFO ring, in arrival order, with its event time and key id, in parallel primitive arrays. The owner
 * decides when ids may be forgotten: {@link #forget(EvictionRule)} walks the ring from the oldest entry
 * and forgets entries while the rule allows, stopping at the first one it does not (head-of-line: simple
 * and deterministic, at the cost of keeping a few forgettable entries behind a late-arriving old one).
 * A forgotten id is seen as new again.
 * <p>
 * The ring grows (doubling) only when full, to at most {@link #MAX_CAPACITY} ids, and the set only when
 * its load passes its threshold, so steady-state processing allocates nothing.
 * <p>
 * Not thread-safe: one owner thread.
 */
public final class DuplicateFilter
{
    /**
     * Decides whether a remembered entry may be forgotten.
     */
    @FunctionalInterface
    public interface EvictionRule
    {
        /**
         * @param eventTime the entry's event time.
         * @param keyId     the entry's key id.
         * @return true if the entry's id may be forgotten: no duplicate of it will be accepted any more.
         */
        boolean canForget(long eventTime, int keyId);
    }

    /**
     * Receives remembered entries.
     */
    @FunctionalInterface
    public interface EntryConsumer
    {
        /**
         * @param eventId   the remembered id.
         * @param eventTime its event time.
         * @param keyId     its key id.
         */
        void accept(long eventId, long eventTime, int keyId);
    }

    /** The most ids remembered at once: the ring's capacity is a power of two that fits an int. */
    public static final int MAX_CAPACITY = 1 << 30;

    private final LongHashSet members;
    private long[] times;
    private long[] eventIds;
    private int[] keyIds;
    private int mask;
    private int head;
    private int size;

    /**
     * @param initialCapacity entries to pre-allocate (rounded up to a power of two, at least 16, at most
     *                        {@link #MAX_CAPACITY}).
     */
    public DuplicateFilter(final int initialCapacity)
    {
        final int capacity = BitUtil.findNextPositivePowerOfTwo(Math.min(MAX_CAPACITY, Math.max(16, initialCapacity)));
        members = new LongHashSet(capacity);
        times = new long[capacity];
        eventIds = new long[capacity];
        keyIds = new int[capacity];
        mask = capacity - 1;
    }

    /**
     * Check an event id and remember it if it is new.
     *
     * @param eventId   the event id.
     * @param eventTime the event's time, kept for the eviction rule.
     * @param keyId     the event's key id, kept for the eviction rule.
     * @return true if the id was not remembered (it is now); false if it is a duplicate (nothing changes).
     * @throws IllegalStateException if {@link #MAX_CAPACITY} ids are remembered already.
     */
    public boolean firstSeen(final long eventId, final long eventTime, final int keyId)
    {
        if (!members.add(eventId))
        {
            return false;
        }
        if (size == eventIds.length)
        {
            grow();
        }
        final int tail = (head + size) & mask;
        times[tail] = eventTime;
        eventIds[tail] = eventId;
        keyIds[tail] = keyId;
        size++;
        return true;
    }

    /**
     * Forget entries from the oldest on, while the rule allows; stop at the first it does not.
     *
     * @param rule asked about each entry, oldest first.
     * @return how many entries were forgotten.
     */
    public int forget(final EvictionRule rule)
    {
        return forget(rule, 0);
    }

    /**
     * Forget entries from the oldest on, while the rule allows. An oldest entry the rule keeps is moved
     * to the back of the queue, at most {@code requeues} times in this call, so that one entry that must be
     * kept for long (a key whose session never closes) does not hold back the others.
     *
     * @param rule     asked about each entry, oldest first.
     * @param requeues how many kept entries may be moved to the back in this call.
     * @return how many entries were forgotten.
     */
    public int forget(final EvictionRule rule, final int requeues)
    {
        int forgotten = 0;
        int moved = 0;
        while (size > 0)
        {
            if (rule.canForget(times[head], keyIds[head]))
            {
                members.remove(eventIds[head]);
                head = (head + 1) & mask;
                size--;
                forgotten++;
            }
            else if (moved < requeues && size > 1)
            {
                final int tail = (head + size) & mask;
                times[tail] = times[head];
                eventIds[tail] = eventIds[head];
                keyIds[tail] = keyIds[head];
                head = (head + 1) & mask;
                moved++;
            }
            else
            {
                break;
            }
        }
        if (size == 0)
        {
            head = 0;
        }
        return forgotten;
    }

    /**
     * Visit every remembered entry, oldest first (for a checkpoint; restore by calling
     * {@link #firstSeen(long, long, int)} for each, in the same order, on an empty filter).
     *
     * @param consumer receives each entry; must not modify this filter.
     */
    public void forEach(final EntryConsumer consumer)
    {
        for (int i = 0; i < size; i++)
        {
            final int index = (head + i) & mask;
            consumer.accept(eventIds[index], times[index], keyIds[index]);
        }
    }

    /**
     * Forget everything; capacity is kept.
     */
    public void clear()
    {
        members.clear();
        head = 0;
        size = 0;
    }

    /**
     * @return how many ids are remembered.
     */
    public int size()
    {
        return size;
    }

    /**
     * @return bytes retained by the ring arrays plus an estimate of the id set's (its capacity times 8).
     */
    public long retainedBytes()
    {
        final long ring = (long)eventIds.length * (2 * Long.BYTES + Integer.BYTES);
        final long set = (long)members.capacity() * Long.BYTES;
        return ring + set;
    }

    /**
     * @param capacity the ring's capacity now, a power of two.
     * @return the capacity to grow to: double.
     * @throws IllegalStateException if the capacity is {@link #MAX_CAPACITY} already.
     */
    static int grownCapacity(final int capacity)
    {
        if (capacity >= MAX_CAPACITY)
        {
            throw new IllegalStateException("more than " + MAX_CAPACITY + " event ids remembered for dedupe");
        }
        return capacity * 2;
    }

    private void grow()
    {
        final int capacity = grownCapacity(eventIds.length);
        final long[] newTime = new long[capacity];
        final long[] newId = new long[capacity];
        final int[] newKey = new int[capacity];
        final int first = Math.min(size, eventIds.length - head);
        System.arraycopy(times, head, newTime, 0, first);
        System.arraycopy(eventIds, head, newId, 0, first);
        System.arraycopy(keyIds, head, newKey, 0, first);
        System.arraycopy(times, 0, newTime, first, size - first);
        System.arraycopy(eventIds, 0, newId, first, size - first);
        System.arraycopy(keyIds, 0, newKey, first, size - first);
        times = newTime;
        eventIds = newId;
        keyIds = newKey;
        mask = capacity - 1;
        head = 0;
    }
}
