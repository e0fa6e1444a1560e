package dev.weir.engine.checkpoint;

import dev.weir.engine.operator.OperatorCounters;
import dev.weir.engine.operator.OperatorState;
import dev.weir.engine.resume.CheckpointMismatchException;
import dev.weir.engine.state.WindowSlots;
import dev.weir.journal.schema.NewerFormatException;

/**
 * The checkpoint format of the aggregation stage's state (format {@value #STATE_VERSION}), written and
 * read through {@link OperatorState}:
 * <pre>
 *   int    format version
 *   long   watermark
 *   long   last offset applied, or -1
 *   long   counters: events, dropped, side output, ignored, windows fired, windows opened, duplicates
 *   long   filtered events (formats 3 and 4)
 *   long   events whose value wrapped, sum additions that wrapped (formats 4 and 5)
 *   long   unmatched events (format 5 only)
 *   int    remembered ids, or -1 without dedupe
 *          per id, oldest first: long event id, long event time, int key id
 *   int    open windows
 *          per window, in the order a restore re-creates them: int key id, long start, long end, long count,
 *          long sum, long min, long max, int firings, byte flags (bit 0: changed since it last fired; bit 1:
 *          emitted its early row, only ever set with an early condition, so without one the byte is 0 or 1;
 *          bit 2: its early row was suppressed, only ever set with early rows once per key, whose
 *          configuration string a checkpoint without it does not match), then the user aggregation's longs
 * </pre>
 * Timers are not written: they follow from the windows and the watermark. Format 1 (Weir before aligned windows
 * were chained) had format 2's layout with the windows in slot order: it is read for inspection only, never
 * restored, since the order in which the windows of one start fire cannot be recovered from it; a pipeline
 * rebuilds such a state by replaying its journal ({@link dev.weir.engine.Recovery}). All methods are stateless;
 * {@link #snapshot} and {@link #restore} run on the aggregation stage's thread, between two events.
 */
public final class OperatorStateCodec
{
    /** 2: aligned windows are written chain by chain (the order they fire in), not in slot order. */
    public static final int STATE_VERSION = 2;
    /**
     * 3: format 2 with the count of filtered events after the other counters; written only when that count
     * is not 0, so a pipeline without a filter writes the bytes it wrote before filters existed.
     */
    public static final int STATE_VERSION_FILTERED = 3;
    /**
     * 4: format 3 with the counts of wrapped values and wrapped sums after the filtered count; written only
     * when one of them is not 0, so a pipeline whose arithmetic never wrapped writes the bytes it wrote before.
     */
    public static final int STATE_VERSION_WRAPPED = 4;
    /**
     * 5: format 4 with the count of unmatched events (a join found no row) after the wrapped counts; written only
     * when that count is not 0, so a pipeline without a join writes the bytes it wrote before joins existed.
     */
    public static final int STATE_VERSION_UNMATCHED = 5;

    /** 1: aligned windows in slot order; read for inspection, rebuilt by replay, never restored. */
    public static final int STATE_VERSION_SLOT_ORDER = 1;
    /** The oldest format this build restores; an older one is rebuilt by replaying the journal. */
    public static final int OLDEST_RESTORED = STATE_VERSION;
    /** The newest format this build reads; a newer one was written by a newer Weir and is refused. */
    public static final int NEWEST_READ = STATE_VERSION_UNMATCHED;

    /** A window's flags byte: changed since it last fired. */
    private static final int CHANGED = 1;
    /** A window's flags byte: emitted its early row. */
    private static final int EARLY = 2;
    /** A window's flags byte: its early row was suppressed (early rows once per key). */
    private static final int EARLY_SUPPRESSED = 4;

    private OperatorStateCodec()
    {
    }

    /**
     * Write the whole state, {@link OperatorState#settle() settled} first: every open window in its slot.
     *
     * @param state the aggregation stage's state.
     * @param out   where to write.
     */
    public static void snapshot(final OperatorState state, final StateBuffer out)
    {
        state.settle();
        final OperatorCounters counters = state.counters();
        final long filtered = counters.filtered();
        final long unmatched = counters.unmatched();
        final boolean wrapped = unmatched != 0 || counters.valuesWrapped() != 0 || counters.sumsWrapped() != 0;
        final int version = unmatched != 0 ? STATE_VERSION_UNMATCHED
            : wrapped ? STATE_VERSION_WRAPPED : filtered == 0 ? STATE_VERSION : STATE_VERSION_FILTERED;
        out.putInt(version);
        out.putLong(state.watermark());
        out.putLong(state.lastOffset());
        counters.writeTo(out::putLong);
        if (version != STATE_VERSION)
        {
            out.putLong(filtered);
        }
        if (wrapped)
        {
            out.putLong(counters.valuesWrapped()).putLong(counters.sumsWrapped());
        }
        if (unmatched != 0)
        {
            out.putLong(unmatched);
        }
        if (state.dedupe())
        {
            out.putInt(state.rememberedIds());
            state.forEachRememberedId((id, time, key) -> out.putLong(id).putLong(time).putInt(key));
        }
        else
        {
            out.putInt(-1);
        }
        final WindowSlots slots = state.slots();
        out.putInt(slots.open());
        state.forEachOpenWindow(slot -> writeWindow(slots, slot, out));
    }

    /**
     * Replace the whole state with one written by {@link #snapshot}; the state reschedules the timers.
     *
     * @param in    where to read, positioned at the state.
     * @param state the aggregation stage's state, of the configuration the checkpoint was written under.
     * @throws CheckpointMismatchException if the state is in a format older than {@link #OLDEST_RESTORED}
     *                                     (such a state is rebuilt, see {@link dev.weir.engine.Recovery}), or none a Weir wrote.
     * @throws NewerFormatException        if it is in a format newer than {@link #NEWEST_READ}.
     * @throws IllegalStateException       if it was written with dedupe on and the state has it off, or
     *                                     the other way round.
     */
    public static void restore(final StateBuffer in, final OperatorState state)
    {
        final Head head = readHead(in, state.counters(), true);
        if ((head.rememberedIds >= 0) != state.dedupe())
        {
            throw new IllegalStateException("checkpoint was written with dedupe " + (head.rememberedIds >= 0 ? "on" : "off"));
        }
        state.beginRestore(head.watermark, head.lastOffset);
        for (int i = 0; i < head.rememberedIds; i++)
        {
            state.restoreRememberedId(in.getLong(), in.getLong(), in.getInt());
        }
        final WindowSlots slots = state.slots();
        final int open = in.getInt();
        for (int i = 0; i < open; i++)
        {
            final int key = in.getInt();
            final long start = in.getLong();
            final long end = in.getLong();
            final long count = in.getLong();
            final long sum = in.getLong();
            final long min = in.getLong();
            final long max = in.getLong();
            final int firings = in.getInt();
            final byte flags = in.getByte();
            final int slot = slots.restore(key, start, end, count, sum, min, max, firings, (flags & CHANGED) != 0, (flags & EARLY) != 0);
            if ((flags & EARLY_SUPPRESSED) != 0)
            {
                slots.suppressEarly(slot);
            }
            for (int u = 0, n = slots.userLongs(); u < n; u++)
            {
                slots.userState(slot, u, in.getLong());
            }
            state.windowRestored(slot);
        }
    }

    /**
     * Read the head of a state written by {@link #snapshot}: watermark, counters and sizes, without
     * restoring anything (for inspection).
     *
     * @param in where to read, positioned at the state.
     * @return the watermark, the last offset applied, the counters and the sizes (of format 1 too).
     * @throws CheckpointMismatchException if the state is in a format no Weir wrote.
     * @throws NewerFormatException        if it is in a format newer than {@link #NEWEST_READ}.
     */
    public static StateSummary peek(final StateBuffer in)
    {
        final OperatorCounters counters = new OperatorCounters();
        final Head head = readHead(in, counters, false);
        for (int i = 0; i < head.rememberedIds; i++)
        {
            in.getLong();
            in.getLong();
            in.getInt();
        }
        return new StateSummary(head.watermark, head.lastOffset, counters, Math.max(0, head.rememberedIds), in.getInt());
    }

    private static void writeWindow(final WindowSlots slots, final int slot, final StateBuffer out)
    {
        out.putInt(slots.keyId(slot)).putLong(slots.start(slot)).putLong(slots.end(slot))
            .putLong(slots.count(slot)).putLong(slots.sum(slot)).putLong(slots.min(slot)).putLong(slots.max(slot))
            .putInt(slots.firings(slot)).putByte((byte)((slots.isDirty(slot) ? CHANGED : 0) | (slots.isEarly(slot) ? EARLY : 0)
                | (slots.isEarlySuppressed(slot) ? EARLY_SUPPRESSED : 0)));
        for (int i = 0, n = slots.userLongs(); i < n; i++)
        {
            out.putLong(slots.userState(slot, i));
        }
    }

    /**
     * Read a state's format version, and refuse one no Weir wrote or a newer one.
     *
     * @param in    where to read, positioned at the state; left after the version.
     * @param where the checkpoint it is in, for the messages.
     * @return the format version: from {@link #STATE_VERSION_SLOT_ORDER} to {@link #NEWEST_READ}.
     * @throws NewerFormatException        if it is newer than {@link #NEWEST_READ}.
     * @throws CheckpointMismatchException if it is below format 1.
     */
    public static int readFormat(final StateBuffer in, final Object where)
    {
        final int version = in.getInt();
        if (version > NEWEST_READ)
        {
            throw new NewerFormatException("checkpoint state", where, version, NEWEST_READ);
        }
        if (version < STATE_VERSION_SLOT_ORDER)
        {
            throw new CheckpointMismatchException(where + " holds a state in format " + version
                + ", which no Weir wrote; use 'weir replay' to process the journal again");
        }
        return version;
    }

    /** The format version, the watermark, the last offset and the counters (into {@code counters}), and the count of remembered ids. */
    private static Head readHead(final StateBuffer in, final OperatorCounters counters, final boolean restoring)
    {
        final int version = readFormat(in, "the checkpoint");
        if (restoring && version < OLDEST_RESTORED)
        {
            throw new CheckpointMismatchException("the checkpoint's state is in format " + version + ", which this Weir does not restore"
                + " (it fires the windows of one start in another order): its pipeline rebuilds it by replaying the journal;"
                + " use 'weir replay' to process the journal again");
        }
        final long watermark = in.getLong();
        final long lastOffset = in.getLong();
        counters.readFrom(in::getLong);
        if (version >= STATE_VERSION_FILTERED)
        {
            counters.filtered(in.getLong());
        }
        if (version >= STATE_VERSION_WRAPPED)
        {
            counters.wrapped(in.getLong(), in.getLong());
        }
        if (version >= STATE_VERSION_UNMATCHED)
        {
            counters.unmatched(in.getLong());
        }
        return new Head(watermark, lastOffset, in.getInt());
    }

    private record Head(long watermark, long lastOffset, int rememberedIds)
    {
    }
}
