package dev.weir.engine.operator;

import dev.weir.engine.aggregate.Aggregation;
import dev.weir.engine.checkpoint.CheckpointMismatchException;
import dev.weir.engine.checkpoint.StateBuffer;
import dev.weir.engine.emit.LateEvent;
import dev.weir.engine.emit.LateListener;
import dev.weir.engine.emit.ResultListener;
import dev.weir.engine.emit.WindowResult;
import dev.weir.engine.source.EventSlot;
import dev.weir.engine.state.DuplicateFilter;
import dev.weir.engine.state.FiringSchedule;
import dev.weir.engine.state.WindowSlots;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.time.Lateness;
import dev.weir.engine.time.Watermark;

/**
 * The second stage: applies each assigned event to the state of its windows, fires windows the
 * watermark has passed, re-fires changed ones, routes skipped events, and discards state that can no
 * longer change.
 * <p>
 * Firing rules (DESIGN.md): a window fires when {@code end <= wm}; a window whose content changes after
 * that fires again at once with {@code version + 1}; its state is discarded when {@code end + A <= wm}.
 * Timers that fall due on one watermark advance are handled in (time, fire-before-discard, window start)
 * order, then in an order the subclass keeps that depends only on the journal (key id for sessions, the
 * order windows were opened for aligned windows), so the output depends only on the journal and the
 * configuration, across checkpoints too.
 * <p>
 * With dedupe on, an event whose id was already seen is counted and ignored; ids are forgotten once no
 * window a duplicate could reach can still change ({@link #canForget(long, int)}).
 * <p>
 * Subclasses own the index from (key, window) to slot. Steady state allocates nothing.
 * {@link #snapshot(StateBuffer)} and {@link #restore(StateBuffer)} write and rebuild the whole state
 * for checkpoints. Not thread-safe: one owner thread.
 */
public abstract class WindowAggregator
{
    /** 2: aligned windows are written chain by chain (the order they fire in), not in slot order. */
    private static final int STATE_VERSION = 2;

    protected final WindowSlots slots;
    protected final FiringSchedule schedule;
    protected final Lateness lateness;
    protected final OperatorCounters counters = new OperatorCounters();

    private final LatePolicy latePolicy;
    private final ResultListener results;
    private final LateListener late;
    private final WindowResult result = new WindowResult();
    private final LateEvent lateEvent = new LateEvent();
    private final DuplicateFilter duplicates;
    private final DuplicateFilter.EvictionRule forgetRule = this::canForget;
    private long watermark = Watermark.MIN;
    private long lastOffset = -1;

    /**
     * @param lateness       the lateness rules.
     * @param latePolicy     what to do with skipped events.
     * @param results        receives results.
     * @param late           receives skipped events under {@link LatePolicy#SIDE}.
     * @param initialWindows open windows to pre-size for.
     * @param initialTimers  pending timers to pre-size for.
     * @param windowLength   the length of every window (aligned windows), or 0 if lengths vary (sessions).
     * @param aggregation    a user aggregation to keep per window, or null.
     * @param dedupe         ignore events whose id was already seen.
     */
    protected WindowAggregator(
        final Lateness lateness,
        final LatePolicy latePolicy,
        final ResultListener results,
        final LateListener late,
        final int initialWindows,
        final int initialTimers,
        final long windowLength,
        final Aggregation aggregation,
        final boolean dedupe)
    {
        this.duplicates = dedupe ? new DuplicateFilter(initialWindows * 4) : null;
        this.lateness = lateness;
        this.latePolicy = latePolicy;
        this.results = results;
        this.late = late;
        this.slots = new WindowSlots(initialWindows, windowLength, aggregation);
        this.schedule = new FiringSchedule(initialTimers);
    }

    /**
     * Apply one slot judged by the {@link WindowAssigner}.
     *
     * @param slot the slot.
     */
    public final void apply(final EventSlot slot)
    {
        if (slot.type == EventSlot.END_OF_INPUT)
        {
            // results fired by the end of input cover the whole input: the last event ever applied
            advanceTo(slot.watermarkAfter, lastOffset);
            results.onComplete();
            if (late != results)
            {
                late.onComplete();
            }
            return;
        }
        counters.events++;
        lastOffset = slot.offset;
        if (duplicates != null && !duplicates.firstSeen(slot.eventId, slot.eventTime, slot.keyId))
        {
            counters.duplicates++;
            advanceTo(slot.watermarkAfter, slot.offset);
            return;
        }
        switch (slot.disposition)
        {
            case EventSlot.ASSIGNED:
                aggregate(slot);
                break;
            case EventSlot.SKIPPED:
                skip(slot);
                break;
            default:
                counters.ignored++;
                break;
        }
        advanceTo(slot.watermarkAfter, slot.offset);
        if (duplicates != null)
        {
            duplicates.forget(forgetRule, 2);
        }
    }

    /**
     * @return true if events whose id was already seen are ignored.
     */
    protected final boolean dedupe()
    {
        return duplicates != null;
    }

    /**
     * Add an assigned event to its windows.
     *
     * @param slot the slot, {@link EventSlot#ASSIGNED}.
     */
    protected abstract void aggregate(EventSlot slot);

    /**
     * @param eventTime the time of a remembered event.
     * @param keyId     its key.
     * @return true if a duplicate of it could no longer change any window, so its id may be forgotten.
     */
    protected abstract boolean canForget(long eventTime, int keyId);

    /**
     * A window was created, or its bounds changed: make sure it fires once the watermark reaches its end
     * (if it has not already) and is discarded at its cleanup time.
     *
     * @param slot the window.
     * @param wm   the watermark now.
     */
    protected abstract void track(int slot, long wm);

    /**
     * Handle every timer due at watermark {@code wm}: fire windows whose end it passed (if changed since
     * their last firing), discard windows whose cleanup time it passed.
     *
     * @param wm     the watermark.
     * @param offset the journal offset of the event that moved it, or -1.
     */
    protected abstract void fireDue(long wm, long offset);

    /**
     * Add a restored slot to the subclass's index.
     *
     * @param slot a slot just restored.
     */
    protected abstract void reindex(int slot);

    /**
     * Forget the subclass's index (before a restore).
     */
    protected abstract void clearIndex();

    /**
     * Remove a window from the subclass's index; the slot is freed by the caller.
     *
     * @param slot the slot being discarded.
     */
    protected abstract void unindex(int slot);

    /**
     * Route a late event to the side output or count it dropped.
     *
     * @param slot the slot.
     */
    protected final void skip(final EventSlot slot)
    {
        if (latePolicy == LatePolicy.SIDE)
        {
            counters.sideOutput++;
            late.onLate(lateEvent.set(slot.eventId, slot.eventTime, slot.keyId, slot.value, slot.offset));
        }
        else
        {
            counters.dropped++;
        }
    }

    /**
     * After a window's content changed: fire it at once if the watermark has passed its end, else make
     * sure a timer will fire it.
     *
     * @param slot        the changed window.
     * @param newIdentity true if the window is new or its bounds changed (its old timers no longer apply).
     * @param wm          the watermark the event was judged against.
     * @param offset      the journal offset of the event.
     */
    protected final void changed(final int slot, final boolean newIdentity, final long wm, final long offset)
    {
        if (slots.end(slot) <= wm)
        {
            fire(slot, offset);
        }
        if (newIdentity)
        {
            track(slot, wm);
        }
    }

    /**
     * Move the watermark forward and handle every timer now due.
     *
     * @param wm     the new watermark.
     * @param offset the journal offset of the event that moved it, or -1.
     */
    protected final void advanceTo(final long wm, final long offset)
    {
        watermark = wm;
        fireDue(wm, offset);
    }

    /**
     * Fire a window: emit its aggregate with the next version.
     *
     * @param slot   the window.
     * @param offset the journal offset of the event being applied, or -1.
     */
    protected final void fire(final int slot, final long offset)
    {
        final int version = slots.markFired(slot);
        counters.windowsFired++;
        results.onResult(result.window(slots.start(slot), slots.end(slot)).keyId(slots.keyId(slot)).count(slots.count(slot))
            .sum(slots.sum(slot)).min(slots.min(slot)).max(slots.max(slot)).version(version).sourceOffset(offset)
            .withAggregate(slots.aggregate(slot)));
    }

    /**
     * Discard a window: out of the index, slot freed.
     *
     * @param slot the window.
     */
    protected final void discard(final int slot)
    {
        unindex(slot);
        slots.free(slot);
    }

    /**
     * Write the whole state: watermark, counters, remembered ids, and every open window with its
     * aggregate, version and whether it changed since it last fired. Timers are not written: they follow
     * from the windows and the watermark.
     *
     * @param out where to write.
     */
    public final void snapshot(final StateBuffer out)
    {
        out.putInt(STATE_VERSION);
        out.putLong(watermark);
        out.putLong(lastOffset);
        counters.write(out);
        if (duplicates == null)
        {
            out.putInt(-1);
        }
        else
        {
            out.putInt(duplicates.size());
            duplicates.forEach((id, time, key) -> out.putLong(id).putLong(time).putInt(key));
        }
        out.putInt(slots.open());
        writeWindows(out);
    }

    /**
     * Write every open window with {@link #writeWindow(StateBuffer, int)}, in the order a restore must
     * re-create them; by default in slot order.
     *
     * @param out where to write.
     */
    protected void writeWindows(final StateBuffer out)
    {
        for (int slot = 0, n = slots.highWater(); slot < n; slot++)
        {
            if (slots.isAllocated(slot))
            {
                writeWindow(out, slot);
            }
        }
    }

    /**
     * Write one open window.
     *
     * @param out  where to write.
     * @param slot the window.
     */
    protected final void writeWindow(final StateBuffer out, final int slot)
    {
        out.putInt(slots.keyId(slot)).putLong(slots.start(slot)).putLong(slots.end(slot))
            .putLong(slots.count(slot)).putLong(slots.sum(slot)).putLong(slots.min(slot)).putLong(slots.max(slot))
            .putInt(slots.firings(slot)).putByte(slots.isDirty(slot) ? (byte)1 : (byte)0);
        for (int i = 0, n = slots.userLongs(); i < n; i++)
        {
            out.putLong(slots.userState(slot, i));
        }
    }

    /**
     * Replace the whole state with one written by {@link #snapshot(StateBuffer)}, and reschedule the
     * timers ({@link #track(int, long)}): a window whose end the watermark has not reached fires at its end;
     * one that has fired waits for its cleanup time.
     *
     * @param in where to read.
     * @throws CheckpointMismatchException if the state was written in another format.
     */
    public final void restore(final StateBuffer in)
    {
        final int version = in.getInt();
        if (version != STATE_VERSION)
        {
            throw new CheckpointMismatchException("the checkpoint's state is in format " + version + ", this Weir writes format "
                + STATE_VERSION + " (and fires the windows of one start in another order): it was written by another version; "
                + "use 'weir replay' to process the journal again");
        }
        watermark = in.getLong();
        lastOffset = in.getLong();
        counters.read(in);
        final int remembered = in.getInt();
        if ((remembered >= 0) != (duplicates != null))
        {
            throw new IllegalStateException("checkpoint was written with dedupe " + (remembered >= 0 ? "on" : "off"));
        }
        if (duplicates != null)
        {
            duplicates.clear();
            for (int i = 0; i < remembered; i++)
            {
                duplicates.firstSeen(in.getLong(), in.getLong(), in.getInt());
            }
        }
        slots.reset();
        clearIndex();
        schedule.clear();
        final int open = in.getInt();
        for (int i = 0; i < open; i++)
        {
            final int slot = slots.restore(in.getInt(), in.getLong(), in.getLong(), in.getLong(), in.getLong(), in.getLong(), in.getLong(),
                in.getInt(), in.getByte() != 0);
            for (int u = 0, n = slots.userLongs(); u < n; u++)
            {
                slots.userState(slot, u, in.getLong());
            }
            reindex(slot);
            track(slot, watermark);
        }
    }

    /**
     * Read the head of a state written by {@link #snapshot(StateBuffer)}: watermark and counters, without
     * restoring anything (for inspection).
     *
     * @param in where to read, positioned at the state.
     * @return the watermark, the last offset applied and the counters.
     */
    public static StateSummary peek(final StateBuffer in)
    {
        final int version = in.getInt();
        if (version != STATE_VERSION)
        {
            throw new CheckpointMismatchException("the checkpoint's state is in format " + version + ", this Weir reads format "
                + STATE_VERSION + ": it was written by another version");
        }
        final long wm = in.getLong();
        final long last = in.getLong();
        final OperatorCounters c = new OperatorCounters();
        c.read(in);
        final int remembered = in.getInt();
        if (remembered > 0)
        {
            for (int i = 0; i < remembered; i++)
            {
                in.getLong();
                in.getLong();
                in.getInt();
            }
        }
        return new StateSummary(wm, last, c, Math.max(0, remembered), in.getInt());
    }

    /**
     * The head of a checkpointed state.
     *
     * @param watermark     the watermark.
     * @param lastOffset    the last offset applied.
     * @param counters      the counters.
     * @param rememberedIds ids remembered for dedupe.
     * @param openWindows   open (key, window) states.
     */
    public record StateSummary(long watermark, long lastOffset, OperatorCounters counters, int rememberedIds, int openWindows)
    {
    }

    /**
     * @return ids remembered for dedupe (0 when dedupe is off).
     */
    public final int rememberedIds()
    {
        return duplicates == null ? 0 : duplicates.size();
    }

    /**
     * @return the watermark after the last slot applied.
     */
    public final long watermark()
    {
        return watermark;
    }

    /**
     * @return the journal offset of the last event applied, or -1.
     */
    public final long lastOffset()
    {
        return lastOffset;
    }

    /**
     * @return the open (key, window) states.
     */
    public final int openWindows()
    {
        return slots.open();
    }

    /**
     * @return bytes retained by window state and timers.
     */
    public long retainedBytes()
    {
        return slots.retainedBytes() + schedule.retainedBytes() + (duplicates == null ? 0 : duplicates.retainedBytes());
    }

    /**
     * @return the counters, owned by this stage's thread.
     */
    public final OperatorCounters counters()
    {
        return counters;
    }
}
