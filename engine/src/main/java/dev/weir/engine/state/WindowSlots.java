package dev.weir.engine.state;

import java.util.Arrays;
import java.util.List;

import dev.weir.engine.aggregate.Aggregation;
import dev.weir.engine.aggregate.AggregationState;
import dev.weir.engine.aggregate.EventColumns;

/**
 * The aggregates of every open (key, window), one slot each.
 * <p>
 * A slot holds the window's bounds and key, its count, sum (64-bit, wrapping: {@link #add} and {@link #mergeInto}
 * tell when it wraps), min and max, how many
 * times it has fired (the next firing's version), whether its content changed since it last fired, and
 * one link used by the owner of the slot (a free list here, a per-key session chain for sessions).
 * A slot is 8 consecutive longs (64 bytes) of one array, so updating a window touches one or two cache
 * lines rather than one per field; 7 longs (56 bytes) when every window has the same length (tumbling and
 * sliding windows), whose end then follows from the start:
 * <pre>
 *   0 start   1 count   2 sum   3 min   4 max   5 key id | firings   6 link | flags   [7 end]   [user state]
 * </pre>
 * With user {@link Aggregation}s, their fixed numbers of longs of state follow in the same slot, one
 * aggregation's after the other's, in the order given; they are initialised, added to and merged with the
 * slot's own aggregates.
 * Freed slots are reused; the array grows (doubling) only when every slot is in use, so steady-state
 * processing allocates nothing.
 * <p>
 * Not thread-safe: one owner thread.
 */
public final class WindowSlots
{
    /** The "no slot" value for links. */
    public static final int NONE = -1;

    /** The most open windows one instance holds: 2^27 (8 GiB of slots), within Java's array limit. */
    public static final int MAX_CAPACITY = 1 << 27;

    /** The longest {@code long[]} the JVM allocates (a few header words below {@code Integer.MAX_VALUE}). */
    static final int MAX_ARRAY_LONGS = Integer.MAX_VALUE - 8;

    private static final int START = 0;
    private static final int COUNT = 1;
    private static final int SUM = 2;
    private static final int MIN = 3;
    private static final int MAX = 4;
    private static final int KEY_FIRINGS = 5;
    private static final int LINK_FLAGS = 6;
    private static final int END = 7;

    private static final long ALIVE = 1;
    private static final long DIRTY = 2;
    private static final long EARLY = 4;
    private static final long EARLY_SUPPRESSED = 8;
    private static final long LOW = 0xFFFF_FFFFL;

    private final int stride;
    private final int maxCapacity;
    private final int userBase;
    private final int userLongs;
    private final Aggregation[] aggregations;
    /** Per aggregation: where its state starts, from the slot's first user long. */
    private final int[] stateStart;
    /** Per aggregation: how many longs of state it keeps. */
    private final int[] stateLongs;
    private final AggregationState state = new AggregationState();
    private final AggregationState other = new AggregationState();
    private final long fixedLength;
    private long[] slots;
    private int capacity;
    private int freeHead = NONE;
    private int highWater;
    private int open;

    /**
     * @param initialCapacity slots to pre-allocate (at least 16, at most the most one array holds).
     * @param fixedLength     the length every window has ({@code end - start}, tumbling and sliding windows),
     *                        so the end is not stored and a slot is 7 longs; or 0 for windows of any length
     *                        (sessions: 8 longs).
     * @param aggregations    user aggregations whose state each slot also keeps (after its own fields, in this
     *                        order), at most {@link Aggregation#MAX_AGGREGATIONS}; empty or null for none.
     */
    public WindowSlots(final int initialCapacity, final long fixedLength, final List<Aggregation> aggregations)
    {
        if (fixedLength < 0)
        {
            throw new IllegalArgumentException("fixed length must be >= 0: " + fixedLength);
        }
        this.fixedLength = fixedLength;
        this.aggregations = aggregations == null ? new Aggregation[0] : aggregations.toArray(new Aggregation[0]);
        if (this.aggregations.length > Aggregation.MAX_AGGREGATIONS)
        {
            throw new IllegalArgumentException("at most " + Aggregation.MAX_AGGREGATIONS + " aggregations: " + this.aggregations.length);
        }
        this.userBase = fixedLength > 0 ? END : END + 1;
        this.stateStart = new int[this.aggregations.length];
        this.stateLongs = new int[this.aggregations.length];
        int longs = 0;
        for (int i = 0; i < this.aggregations.length; i++)
        {
            final int n = this.aggregations[i].stateLongs();
            if (n < 1 || n > Aggregation.MAX_STATE_LONGS)
            {
                throw new IllegalArgumentException("an aggregation keeps 1 to " + Aggregation.MAX_STATE_LONGS + " longs: " + n);
            }
            stateStart[i] = longs;
            stateLongs[i] = n;
            longs += n;
        }
        this.userLongs = longs;
        this.stride = userBase + userLongs;
        this.maxCapacity = maxCapacity(stride);
        capacity = Math.min(maxCapacity, Math.max(16, initialCapacity));
        assert (long)capacity * stride <= MAX_ARRAY_LONGS : "slots fit one array";
        slots = new long[capacity * stride];
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
        assert windowStart <= windowEnd : "a window does not end before it starts";
        final int slot;
        if (freeHead != NONE)
        {
            slot = freeHead;
            freeHead = link(slot);
        }
        else
        {
            if (highWater == capacity)
            {
                grow();
            }
            slot = highWater++;
        }
        final long[] s = slots;
        final int base = slot * stride;
        s[base + START] = windowStart;
        if (fixedLength == 0)
        {
            s[base + END] = windowEnd;
        }
        else if (windowEnd - windowStart != fixedLength)
        {
            throw new IllegalArgumentException("window [" + windowStart + ", " + windowEnd + ") is not " + fixedLength + " long");
        }
        s[base + COUNT] = 0;
        s[base + SUM] = 0;
        s[base + MIN] = Long.MAX_VALUE;
        s[base + MAX] = Long.MIN_VALUE;
        s[base + KEY_FIRINGS] = (long)key << 32;
        s[base + LINK_FLAGS] = ((long)NONE << 32) | ALIVE;
        for (int i = 0; i < aggregations.length; i++)
        {
            aggregations[i].init(state.wrap(s, base + userBase + stateStart[i], stateLongs[i]));
        }
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
        return restore(key, windowStart, windowEnd, windowCount, windowSum, windowMin, windowMax, fired, dirty, false);
    }

    /**
     * Take a free slot for a window restored from a checkpoint, with its aggregate, firing history and
     * whether it emitted its early row.
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
     * @param early       whether it emitted its early row.
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
        final boolean dirty,
        final boolean early)
    {
        assert fired >= 0 : "firings are counted from 0";
        final int slot = allocate(key, windowStart, windowEnd);
        final int base = slot * stride;
        slots[base + COUNT] = windowCount;
        slots[base + SUM] = windowSum;
        slots[base + MIN] = windowMin;
        slots[base + MAX] = windowMax;
        slots[base + KEY_FIRINGS] = ((long)key << 32) | (fired & LOW);
        setFlags(slot, (dirty ? ALIVE | DIRTY : ALIVE) | (early ? EARLY : 0));
        return slot;
    }

    /**
     * @return one past the highest slot ever allocated: every allocated slot is below it.
     */
    public int highWater()
    {
        return highWater;
    }

    /** For asserts: a slot that was ever allocated (it may be free now). */
    private boolean inRange(final int slot)
    {
        return slot >= 0 && slot < highWater;
    }

    /** For asserts: a slot that holds a window. */
    private boolean allocated(final int slot)
    {
        return inRange(slot) && flags(slot) != 0;
    }

    /**
     * @param slot a slot below {@link #highWater()}.
     * @return true if it holds a window.
     */
    public boolean isAllocated(final int slot)
    {
        assert inRange(slot) : "slot below the high-water mark";
        return flags(slot) != 0;
    }

    /**
     * Free every slot (before a restore).
     */
    public void reset()
    {
        for (int slot = 0; slot < highWater; slot++)
        {
            setFlags(slot, 0);
        }
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
        assert allocated(slot) : "only an allocated slot is freed, once";
        slots[slot * stride + LINK_FLAGS] = (long)freeHead << 32;
        freeHead = slot;
        open--;
    }

    /**
     * Add one value to a window's aggregate and mark it changed; for user aggregations that read no columns.
     *
     * @param slot  an allocated slot.
     * @param value the event's value.
     * @return true if the sum wrapped (left the 64-bit range).
     */
    public boolean add(final int slot, final long value)
    {
        return add(slot, value, null);
    }

    /**
     * Add one event to a window's aggregate and mark it changed.
     *
     * @param slot  an allocated slot.
     * @param value the event's value.
     * @param event the event's columns, for user aggregations that read them (may be null if none does).
     * @return true if the sum, or a named aggregate's sum, wrapped (left the 64-bit range).
     */
    public boolean add(final int slot, final long value, final EventColumns event)
    {
        assert allocated(slot) : "values are added to an allocated slot";
        final long[] s = slots;
        final int base = slot * stride;
        s[base + COUNT]++;
        final long sum = s[base + SUM];
        final long newSum = sum + value;
        s[base + SUM] = newSum;
        if (value < s[base + MIN])
        {
            s[base + MIN] = value;
        }
        if (value > s[base + MAX])
        {
            s[base + MAX] = value;
        }
        s[base + LINK_FLAGS] |= DIRTY;
        final Aggregation[] user = aggregations;
        for (int i = 0; i < user.length; i++)
        {
            user[i].add(state.wrap(s, base + userBase + stateStart[i], stateLongs[i]), value, event);
        }
        final boolean userSumWrapped = event != null && event.takeSumWrapped();
        return wrapped(sum, value, newSum) || userSumWrapped;
    }

    /**
     * Fold the aggregate and the firing count of {@code source} into {@code target} (merging sessions),
     * mark {@code target} changed, and early (or early-suppressed) if either was. {@code source} is left as it was; the caller frees it.
     *
     * @param target the surviving slot.
     * @param source the slot merged into it.
     * @return true if the sum wrapped (left the 64-bit range).
     */
    public boolean mergeInto(final int target, final int source)
    {
        assert allocated(target) && allocated(source) && target != source : "two allocated slots";
        final long[] s = slots;
        final int t = target * stride;
        final int f = source * stride;
        s[t + COUNT] += s[f + COUNT];
        final long sum = s[t + SUM];
        final long added = s[f + SUM];
        final long newSum = sum + added;
        s[t + SUM] = newSum;
        s[t + MIN] = Math.min(s[t + MIN], s[f + MIN]);
        s[t + MAX] = Math.max(s[t + MAX], s[f + MAX]);
        s[t + KEY_FIRINGS] = (s[t + KEY_FIRINGS] & ~LOW) | ((firings(target) + firings(source)) & LOW);
        s[t + LINK_FLAGS] |= DIRTY | (s[f + LINK_FLAGS] & (EARLY | EARLY_SUPPRESSED));
        for (int i = 0; i < aggregations.length; i++)
        {
            aggregations[i].merge(state.wrap(s, t + userBase + stateStart[i], stateLongs[i]),
                other.wrap(s, f + userBase + stateStart[i], stateLongs[i]));
        }
        return wrapped(sum, added, newSum);
    }

    /**
     * Mark a window changed since it last fired, its aggregate kept elsewhere (sliding panes): it fires when due.
     *
     * @param slot an allocated slot.
     */
    public void markChanged(final int slot)
    {
        assert allocated(slot) : "an allocated slot";
        slots[slot * stride + LINK_FLAGS] |= DIRTY;
    }

    /**
     * Copy a window's start, key and aggregate (count, sum, min, max, user state) from another instance of the same
     * layout into an allocated slot of this one; its firings and flags stay this slot's.
     *
     * @param target an allocated slot of this instance.
     * @param from   slots of the same window length and aggregations.
     * @param source an allocated slot of {@code from}.
     */
    public void copyWindow(final int target, final WindowSlots from, final int source)
    {
        assert sameLayout(from) && allocated(target) && from.allocated(source) : "allocated slots of one layout";
        final long[] s = slots;
        final long[] f = from.slots;
        final int t = target * stride;
        final int o = source * stride;
        s[t + START] = f[o + START];
        s[t + COUNT] = f[o + COUNT];
        s[t + SUM] = f[o + SUM];
        s[t + MIN] = f[o + MIN];
        s[t + MAX] = f[o + MAX];
        s[t + KEY_FIRINGS] = f[o + KEY_FIRINGS];
        if (fixedLength == 0)
        {
            s[t + END] = f[o + END];
        }
        System.arraycopy(f, o + userBase, s, t + userBase, userLongs);
    }

    /**
     * Make an allocated slot an empty window of a key and start (a row put together elsewhere, such as a pending
     * window's from its panes); its firings and flags stay as they were.
     *
     * @param slot        an allocated slot.
     * @param key         the key id.
     * @param windowStart the window's start (windows of a fixed length only).
     */
    public void resetWindow(final int slot, final int key, final long windowStart)
    {
        assert allocated(slot) && fixedLength > 0 : "an allocated slot of windows of a fixed length";
        final long[] s = slots;
        final int base = slot * stride;
        s[base + START] = windowStart;
        s[base + COUNT] = 0;
        s[base + SUM] = 0;
        s[base + MIN] = Long.MAX_VALUE;
        s[base + MAX] = Long.MIN_VALUE;
        s[base + KEY_FIRINGS] = ((long)key << 32) | (s[base + KEY_FIRINGS] & LOW);
        for (int i = 0; i < aggregations.length; i++)
        {
            aggregations[i].init(state.wrap(s, base + userBase + stateStart[i], stateLongs[i]));
        }
    }

    /**
     * Fold an aggregate kept elsewhere (a pane's) into this slot's count, sum, min and max; nothing else changes.
     *
     * @param target an allocated slot.
     * @param count  the other aggregate's count.
     * @param sum    its wrapping sum.
     * @param min    its min.
     * @param max    its max.
     */
    public void mergeAggregate(final int target, final long count, final long sum, final long min, final long max)
    {
        assert allocated(target) : "an allocated slot";
        final long[] s = slots;
        final int t = target * stride;
        s[t + COUNT] += count;
        s[t + SUM] += sum;
        if (min < s[t + MIN])
        {
            s[t + MIN] = min;
        }
        if (max > s[t + MAX])
        {
            s[t + MAX] = max;
        }
    }

    /** For asserts: another instance whose slots are laid out as this one's. */
    private boolean sameLayout(final WindowSlots from)
    {
        return stride == from.stride && fixedLength == from.fixedLength && userBase == from.userBase
            && aggregations.length == from.aggregations.length;
    }

    /** @return true if {@code sum + added}, which gave {@code newSum}, wrapped: both operands' signs differ from the result's. */
    private static boolean wrapped(final long sum, final long added, final long newSum)
    {
        return ((sum ^ newSum) & (added ^ newSum)) < 0;
    }

    /**
     * @param slot an allocated slot.
     * @return the first user aggregation's result for it, or 0 without one.
     */
    public long aggregate(final int slot)
    {
        return aggregations.length == 0 ? 0 : aggregate(slot, 0);
    }

    /**
     * @param slot  an allocated slot.
     * @param index 0 .. {@link #aggregations()} - 1.
     * @return that user aggregation's result for it.
     */
    public long aggregate(final int slot, final int index)
    {
        assert allocated(slot) : "an allocated slot";
        return aggregations[index].result(state.wrap(slots, slot * stride + userBase + stateStart[index], stateLongs[index]));
    }

    /**
     * @param slot an allocated slot.
     * @return which aggregations have a value for it: bit i set when aggregation i {@link Aggregation#hasValue has
     *         one} (a named aggregate over no matching event has none).
     */
    public long presence(final int slot)
    {
        long mask = 0;
        for (int i = 0; i < aggregations.length; i++)
        {
            if (hasValue(slot, i))
            {
                mask |= 1L << i;
            }
        }
        return mask;
    }

    /**
     * @param slot  an allocated slot.
     * @param index 0 .. {@link #aggregations()} - 1.
     * @return true if that aggregation {@link Aggregation#hasValue has a value} for it.
     */
    public boolean hasValue(final int slot, final int index)
    {
        assert allocated(slot) : "an allocated slot";
        return aggregations[index].hasValue(state.wrap(slots, slot * stride + userBase + stateStart[index], stateLongs[index]));
    }

    /**
     * @return how many user aggregations each slot keeps state for.
     */
    public int aggregations()
    {
        return aggregations.length;
    }

    /**
     * @return how many longs of user aggregation state each slot keeps: every aggregation's, 0 without one.
     */
    public int userLongs()
    {
        return userLongs;
    }

    /**
     * @param slot  an allocated slot.
     * @param index 0 .. {@link #userLongs()} - 1.
     * @return that long of its user aggregation state (for checkpoints).
     */
    public long userState(final int slot, final int index)
    {
        assert allocated(slot) && index >= 0 && index < userLongs : "an allocated slot, an index below userLongs()";
        return slots[slot * stride + userBase + index];
    }

    /**
     * @param slot  an allocated slot.
     * @param index 0 .. {@link #userLongs()} - 1.
     * @param value that long of its user aggregation state (restoring a checkpoint).
     */
    public void userState(final int slot, final int index, final long value)
    {
        assert allocated(slot) && index >= 0 && index < userLongs : "an allocated slot, an index below userLongs()";
        slots[slot * stride + userBase + index] = value;
    }

    /**
     * Record that a slot fired: its version moves on and it is no longer changed.
     *
     * @param slot an allocated slot.
     * @return the version of this firing (0 for the first).
     */
    public int markFired(final int slot)
    {
        assert allocated(slot) : "an allocated slot fires";
        final int base = slot * stride;
        slots[base + LINK_FLAGS] &= ~DIRTY;
        final int version = firings(slot);
        slots[base + KEY_FIRINGS] = (slots[base + KEY_FIRINGS] & ~LOW) | ((version + 1) & LOW);
        return version;
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
        if (fixedLength > 0)
        {
            throw new IllegalStateException("windows of a fixed length cannot change bounds");
        }
        assert allocated(slot) && windowStart <= windowEnd : "an allocated slot, a window that does not end before it starts";
        slots[slot * stride + START] = windowStart;
        slots[slot * stride + END] = windowEnd;
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
        assert inRange(slot) : "slot below the high-water mark";
        final int base = slot * stride;
        return flags(slot) != 0 && keyId(slot) == key && slots[base + START] == windowStart && end(slot) == windowEnd;
    }

    /**
     * @param slot an allocated slot.
     * @return true if its content changed since it last fired (or it never fired).
     */
    public boolean isDirty(final int slot)
    {
        return (flags(slot) & DIRTY) != 0;
    }

    /**
     * @param slot an allocated slot.
     * @return true if it emitted its early row (with sessions: it or a session merged into it did).
     */
    public boolean isEarly(final int slot)
    {
        return (flags(slot) & EARLY) != 0;
    }

    /**
     * Record that a window emitted its early row: it emits no other.
     *
     * @param slot an allocated slot.
     */
    public void markEarly(final int slot)
    {
        assert allocated(slot) : "an allocated slot";
        slots[slot * stride + LINK_FLAGS] |= EARLY;
    }

    /**
     * @param slot an allocated slot.
     * @return true if its early row is settled: it emitted it ({@link #isEarly}) or it was suppressed
     *         ({@link #isEarlySuppressed}); either way it is never tested again.
     */
    public boolean isEarlySettled(final int slot)
    {
        return (flags(slot) & (EARLY | EARLY_SUPPRESSED)) != 0;
    }

    /**
     * @param slot an allocated slot.
     * @return true if its early condition first held while its early row was suppressed (early rows once per
     *         key): it emits none.
     */
    public boolean isEarlySuppressed(final int slot)
    {
        return (flags(slot) & EARLY_SUPPRESSED) != 0;
    }

    /**
     * Record that a window's early condition first held while its early row was suppressed: it emits none,
     * and, unlike a window that emitted its early row, suppresses no other's.
     *
     * @param slot an allocated slot.
     */
    public void suppressEarly(final int slot)
    {
        assert allocated(slot) : "an allocated slot";
        slots[slot * stride + LINK_FLAGS] |= EARLY_SUPPRESSED;
    }

    /** @param slot a slot. @return the window start. */
    public long start(final int slot)
    {
        assert inRange(slot) : "slot below the high-water mark";
        return slots[slot * stride + START];
    }

    /** @param slot a slot. @return the window end (exclusive). */
    public long end(final int slot)
    {
        assert inRange(slot) : "slot below the high-water mark";
        return fixedLength > 0 ? slots[slot * stride + START] + fixedLength : slots[slot * stride + END];
    }

    /** @param slot a slot. @return the key id. */
    public int keyId(final int slot)
    {
        assert inRange(slot) : "slot below the high-water mark";
        return (int)(slots[slot * stride + KEY_FIRINGS] >> 32);
    }

    /** @param slot a slot. @return the event count. */
    public long count(final int slot)
    {
        return slots[slot * stride + COUNT];
    }

    /** @param slot a slot. @return the wrapping sum of values. */
    public long sum(final int slot)
    {
        return slots[slot * stride + SUM];
    }

    /** @param slot a slot. @return the least value. */
    public long min(final int slot)
    {
        return slots[slot * stride + MIN];
    }

    /** @param slot a slot. @return the greatest value. */
    public long max(final int slot)
    {
        return slots[slot * stride + MAX];
    }

    /** @param slot a slot. @return how many times it has fired. */
    public int firings(final int slot)
    {
        return (int)slots[slot * stride + KEY_FIRINGS];
    }

    /** @param slot a slot. @return the owner's link from this slot. */
    public int link(final int slot)
    {
        assert inRange(slot) : "slot below the high-water mark";
        return (int)(slots[slot * stride + LINK_FLAGS] >> 32);
    }

    /**
     * @param slot an allocated slot.
     * @param next the owner's link from this slot.
     */
    public void link(final int slot, final int next)
    {
        assert allocated(slot) && (next == NONE || inRange(next)) : "an allocated slot linked to a slot or to NONE";
        final int i = slot * stride + LINK_FLAGS;
        slots[i] = ((long)next << 32) | (slots[i] & LOW);
    }

    /**
     * @return how many slots are allocated: the open windows.
     */
    public int open()
    {
        return open;
    }

    /**
     * @return how many slots the array can hold before growing.
     */
    public int capacity()
    {
        return capacity;
    }

    /**
     * @return bytes retained by the slots: 56 or 64 per slot of capacity, plus the user aggregation's longs.
     */
    public long retainedBytes()
    {
        return (long)capacity * stride * Long.BYTES;
    }

    private long flags(final int slot)
    {
        return slots[slot * stride + LINK_FLAGS] & LOW;
    }

    private void setFlags(final int slot, final long flags)
    {
        final int i = slot * stride + LINK_FLAGS;
        slots[i] = (slots[i] & ~LOW) | flags;
    }

    private void grow()
    {
        if (capacity >= maxCapacity)
        {
            throw new IllegalStateException("more than " + maxCapacity + " open windows (of " + stride + " longs each)");
        }
        capacity = (int)Math.min(maxCapacity, 2L * capacity);
        assert (long)capacity * stride <= MAX_ARRAY_LONGS : "slots fit one array";
        slots = Arrays.copyOf(slots, capacity * stride);
    }

    /**
     * @param stride longs per slot.
     * @return the most slots of that stride one array holds, at most {@link #MAX_CAPACITY}: {@code capacity * stride}
     *         must fit an int, which 2^27 slots of more than 15 longs (a user aggregation of 8 or more longs) do not.
     */
    static int maxCapacity(final int stride)
    {
        return (int)Math.min(MAX_CAPACITY, MAX_ARRAY_LONGS / stride);
    }
}
