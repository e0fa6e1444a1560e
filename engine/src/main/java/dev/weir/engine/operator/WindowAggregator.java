package dev.weir.engine.operator;

import dev.weir.engine.aggregate.BoundAggregates;
import dev.weir.engine.aggregate.EventColumns;
import dev.weir.engine.emit.KeyText;
import dev.weir.engine.fired.FiredResult;
import dev.weir.engine.fired.SkippedEvent;
import dev.weir.engine.emit.LateEvent;
import dev.weir.engine.emit.LateListener;
import dev.weir.engine.emit.ResultListener;
import dev.weir.engine.emit.WindowResult;
import dev.weir.engine.source.EventSlot;
import dev.weir.engine.state.DuplicateFilter;
import dev.weir.engine.state.FiringSchedule;
import dev.weir.engine.state.StartChains;
import dev.weir.engine.state.WindowSlots;
import dev.weir.engine.time.EventDelays;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.time.Lateness;
import dev.weir.engine.time.Watermark;
import dev.weir.journal.codec.ResultKind;
import org.HdrHistogram.ValueRecorder;

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
 * Update and early rows (options of the configuration): after an event is added to a window whose end the
 * watermark it was judged against has not passed, the window emits an {@link ResultKind#UPDATE} row (with
 * updates on), then its {@link ResultKind#EARLY} row if it has none yet and the early condition holds; both
 * carry the window's current aggregate and the version its next firing will carry. With early rows once per
 * key, a window whose condition first holds while {@link #overlapsPendingEarlyRow(int, long)} is marked
 * suppressed instead, and never emits one. A window whose end has
 * passed fires (or re-fires) instead, as without the options, and final rows are the same with or without
 * them. These rows come while the event is applied, before the rows its watermark advance fires.
 * <p>
 * With dedupe on, an event whose id was already seen is counted and ignored; ids are forgotten once no
 * window a duplicate could reach can still change ({@link #canForget(long, int)}).
 * <p>
 * Each event's delay (the newest event time before it, the watermark it was judged against plus the
 * out-of-orderness, minus its time) is recorded in {@link #delays()}, for this run only (not checkpointed).
 * <p>
 * With named aggregates ({@link OperatorConfiguration#namedAggregates()}), each row carries their values (0 where the
 * window has none) and then their presence mask, bit i set when aggregate i has a value ({@link WindowSlots#presence}).
 * <p>
 * Subclasses own the index from (key, window) to slot. Steady state allocates nothing.
 * The whole state is read and restored for checkpoints through {@link OperatorState}, whose format the
 * checkpoint codec owns. Built by {@link OperatorConfiguration#newAggregator}. Not thread-safe: one owner
 * thread.
 */
public abstract sealed class WindowAggregator implements OperatorState permits AlignedWindowAggregator, SessionWindowAggregator
{
    protected final WindowSlots slots;
    protected final FiringSchedule schedule;
    protected final Lateness lateness;
    protected final OperatorCounters counters = new OperatorCounters();
    /** The columns of the event being applied, for user aggregations that read them. */
    protected final EventColumns event;

    private final LatePolicy latePolicy;
    private final ResultListener results;
    private final LateListener late;
    private final FiredResult fired = new FiredResult();
    /** The named aggregates, or null: each result then carries their values and their presence mask. */
    private final BoundAggregates named;
    private WindowResult result;
    private final boolean emitUpdates;
    private final WindowCondition earlyWhen;
    private final boolean earlyOncePerKey;
    private final WindowView view;
    private final SkippedEvent skipped = new SkippedEvent();
    private LateEvent lateEvent = new LateEvent(skipped);
    private final long outOfOrderness;
    private final EventDelays delays = new EventDelays();
    private final DuplicateFilter duplicates;
    private final DuplicateFilter.EvictionRule forgetRule = this::canForget;
    private long watermark = Watermark.MIN;
    private long lastOffset = -1;
    /** Records the fire-to-listener time of each firing pass, or null. */
    private ValueRecorder firingTimes;
    /** {@code System.nanoTime()} before the first window fired by the slot being applied; 0 when none has. */
    private long firingSince;

    /**
     * @param configuration what to compute.
     * @param results       receives results.
     * @param late          receives skipped events under {@link LatePolicy#SIDE}.
     * @param initialTimers pending timers to pre-size for.
     * @param windowLength  the length of every window (aligned windows), or 0 if lengths vary (sessions).
     */
    WindowAggregator(
        final OperatorConfiguration configuration,
        final ResultListener results,
        final LateListener late,
        final int initialTimers,
        final long windowLength)
    {
        final int initialWindows = configuration.initialWindows();
        this.duplicates = configuration.dedupe() ? new DuplicateFilter(initialWindows * 4) : null;
        this.lateness = configuration.lateness();
        this.outOfOrderness = configuration.outOfOrderness();
        this.latePolicy = configuration.latePolicy();
        this.results = results;
        this.late = late;
        this.slots = new WindowSlots(initialWindows, windowLength, configuration.newSlotAggregations());
        this.named = configuration.namedAggregates();
        this.emitUpdates = configuration.emitUpdates();
        this.earlyWhen = configuration.earlyWhen();
        this.earlyOncePerKey = configuration.earlyOncePerKey();
        this.view = new WindowView(slots);
        this.event = new EventColumns(configuration.schema());
        this.schedule = new FiringSchedule(initialTimers);
        this.result = new WindowResult(fired, null, 0, named);
    }

    /**
     * Give the results and late events the key text and value scale the listeners read them in
     * ({@link WindowResult#key()}, {@link WindowResult#decimalSum()}). Call before the first slot.
     *
     * @param keys  the key ids' text, used on the owner thread, or null for none.
     * @param scale the value's scale.
     */
    public final void describeKeys(final KeyText keys, final int scale)
    {
        this.result = new WindowResult(fired, keys, scale, named);
        this.lateEvent = new LateEvent(skipped, keys, scale);
    }

    /**
     * Time each firing pass: from just before the first window a slot fires to the result listener's return
     * for the last window it fires (update and early rows are not timed). Call before the first slot.
     *
     * @param recorder where to record the pass's nanoseconds, once per pass (the owner thread), or null.
     */
    public final void timeFirings(final ValueRecorder recorder)
    {
        this.firingTimes = recorder;
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
        if (slot.type == EventSlot.HEARTBEAT || slot.type == EventSlot.FILTERED)
        {
            if (slot.type == EventSlot.FILTERED)
            {
                // the watermark belongs to the journal: a filtered or unmatched event moves it, nothing else
                if (slot.unmatched)
                {
                    counters.unmatched++;
                }
                else
                {
                    counters.filtered++;
                }
            }
            // no event: not counted, windowed, deduped or listened to; it fires what its watermark completes,
            // and those results carry its offset, which a checkpoint may cover like an event's
            lastOffset = slot.offset;
            advanceTo(slot.watermarkAfter, slot.offset);
            return;
        }
        assert slot.type == EventSlot.EVENT : "an event, a heartbeat or the end of input";
        counters.events++;
        delays.record(slot.watermarkBefore == Watermark.MIN ? 0 : slot.watermarkBefore + outOfOrderness - slot.eventTime);
        if (slot.valueWrapped)
        {
            counters.valuesWrapped++; // kept as computed (as Java, Flink and Kafka Streams arithmetic wraps), counted
        }
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
                event.wrap(slot.columns, slot.inputs, slot.matched, slot.eventTime, slot.offset);
                view.event(slot.columns);
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

    @Override
    public final boolean dedupe()
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
     * For early rows once per key: is another window of this window's key that overlaps it, and whose end is
     * after {@code wm} (it has not fired), one that emitted its early row?
     *
     * @param slot a window whose early condition first holds.
     * @param wm   the watermark the event was judged against.
     * @return true if such a window exists, so this window's early row is suppressed.
     */
    protected abstract boolean overlapsPendingEarlyRow(int slot, long wm);

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
            skipped.set(slot.eventId, slot.eventTime, slot.keyId, slot.value, slot.offset);
            late.onLate(lateEvent);
        }
        else
        {
            counters.dropped++;
        }
    }

    /**
     * After a window's content changed: fire it at once if the watermark has passed its end, else emit its
     * update and early rows (if on) and make sure a timer will fire it.
     *
     * @param slot        the changed window.
     * @param newIdentity true if the window is new or its bounds changed (its old timers no longer apply).
     * @param wm          the watermark the event was judged against.
     * @param offset      the journal offset of the event.
     */
    protected final void changed(final int slot, final boolean newIdentity, final long wm, final long offset)
    {
        assert slots.isDirty(slot) : "a changed window is allocated and dirty";
        if (slots.end(slot) <= wm)
        {
            fire(slot, offset);
        }
        else
        {
            if (emitUpdates)
            {
                emit(slot, slots.firings(slot), ResultKind.UPDATE, offset);
            }
            if (earlyWhen != null && !slots.isEarlySettled(slot) && earlyWhen.test(view.wrap(rowSlots(), rowSlot(slot))))
            {
                if (earlyOncePerKey && overlapsPendingEarlyRow(slot, wm))
                {
                    slots.suppressEarly(slot);
                }
                else
                {
                    slots.markEarly(slot);
                    emit(slot, slots.firings(slot), ResultKind.EARLY, offset);
                }
            }
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
        assert wm >= watermark : "the watermark never goes back";
        watermark = wm;
        fireDue(wm, offset);
        if (firingSince != 0)
        {
            firingTimes.recordValue(System.nanoTime() - firingSince); // the slot's firing pass is over
            firingSince = 0;
        }
    }

    /**
     * Fire a window: emit its aggregate with the next version.
     *
     * @param slot   the window.
     * @param offset the journal offset of the event being applied, or -1.
     */
    protected final void fire(final int slot, final long offset)
    {
        assert slots.isDirty(slot) : "a window fires only when allocated and changed since it last fired";
        if (firingTimes != null && firingSince == 0)
        {
            firingSince = System.nanoTime();
        }
        final int version = slots.markFired(slot);
        counters.windowsFired++;
        emit(slot, version, ResultKind.FINAL, offset);
    }

    /**
     * Emit a row of a window's current aggregate.
     *
     * @param slot    the window.
     * @param version the version of the row.
     * @param kind    what the row is.
     * @param offset  the journal offset of the event being applied, or -1.
     */
    private void emit(final int window, final int version, final ResultKind kind, final long offset)
    {
        emitRow(rowSlots(), rowSlot(window), version, kind, offset);
    }

    /**
     * Fire a pending window, one without a slot (its first firing, version 0), whose whole aggregate is in a row slot.
     *
     * @param values the slots holding the row.
     * @param row    the row's slot: the window's start, key and aggregate.
     * @param offset the journal offset of the event being applied, or -1.
     */
    protected final void firePending(final WindowSlots values, final int row, final long offset)
    {
        if (firingTimes != null && firingSince == 0)
        {
            firingSince = System.nanoTime();
        }
        counters.windowsFired++;
        emitRow(values, row, 0, ResultKind.FINAL, offset);
    }

    private void emitRow(final WindowSlots values, final int row, final int version, final ResultKind kind, final long offset)
    {
        fired.window(values.start(row), values.end(row)).keyId(values.keyId(row)).count(values.count(row))
            .sum(values.sum(row)).min(values.min(row)).max(values.max(row)).version(version).sourceOffset(offset).kind(kind)
            .withAggregates(named == null ? values.aggregations() : values.aggregations() + 1);
        if (named == null)
        {
            for (int i = 0, n = values.aggregations(); i < n; i++)
            {
                fired.withAggregate(i, values.aggregate(row, i));
            }
        }
        else
        {
            // the values, 0 where empty, then the presence mask
            final long presence = values.presence(row);
            final int n = values.aggregations();
            for (int i = 0; i < n; i++)
            {
                fired.withAggregate(i, (presence & (1L << i)) != 0 ? values.aggregate(row, i) : 0);
            }
            fired.withAggregate(n, presence);
        }
        results.onResult(result);
    }

    /**
     * Where a window's whole aggregate is read for a row: {@link #slots} unless a subclass keeps part of it
     * elsewhere; read after {@link #rowSlot(int)}.
     *
     * @return the slots that {@link #rowSlot(int)} indexes.
     */
    protected WindowSlots rowSlots()
    {
        return slots;
    }

    /**
     * The slot of {@link #rowSlots()} holding a window's whole aggregate (start, key, count, sum, min, max, user
     * state), valid until the next call: by default the window's own slot.
     *
     * @param slot the window.
     * @return the slot to read its row from.
     */
    protected int rowSlot(final int slot)
    {
        return slot;
    }

    /**
     * Discard a window: out of the index, slot freed.
     *
     * @param slot the window.
     */
    protected final void discard(final int slot)
    {
        assert slots.isAllocated(slot) : "a discarded window is allocated";
        unindex(slot);
        slots.free(slot);
    }

    @Override
    public final int rememberedIds()
    {
        return duplicates == null ? 0 : duplicates.size();
    }

    @Override
    public final long watermark()
    {
        return watermark;
    }

    @Override
    public final long lastOffset()
    {
        return lastOffset;
    }

    /**
     * @return the open (key, window) states.
     */
    public int openWindows()
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
     * @return the delays of the events this aggregator applied (since it was made, not restored by a checkpoint);
     *         the owner thread's, or another's once the run has stopped.
     */
    public final EventDelays delays()
    {
        return delays;
    }

    @Override
    public final OperatorCounters counters()
    {
        return counters;
    }

    @Override
    public final void forEachRememberedId(final DuplicateFilter.EntryConsumer consumer)
    {
        if (duplicates != null)
        {
            duplicates.forEach(consumer);
        }
    }

    @Override
    public final WindowSlots slots()
    {
        return slots;
    }

    /**
     * By default in slot order; a subclass whose windows due together fire in another order visits them in
     * that order, so a restore re-creates it.
     */
    @Override
    public void forEachOpenWindow(final StartChains.WindowVisitor visitor)
    {
        for (int slot = 0, n = slots.highWater(); slot < n; slot++)
        {
            if (slots.isAllocated(slot))
            {
                visitor.visit(slot);
            }
        }
    }

    @Override
    public final void beginRestore(final long restoredWatermark, final long restoredLastOffset)
    {
        watermark = restoredWatermark;
        lastOffset = restoredLastOffset;
        if (duplicates != null)
        {
            duplicates.clear();
        }
        slots.reset();
        clearIndex();
        schedule.clear();
    }

    @Override
    public final void restoreRememberedId(final long eventId, final long eventTime, final int keyId)
    {
        assert duplicates != null : "ids are remembered only with dedupe";
        final boolean added = duplicates.firstSeen(eventId, eventTime, keyId);
        assert added : "each id is restored once";
    }

    @Override
    public final void windowRestored(final int slot)
    {
        assert slots.isAllocated(slot) : "a restored window has a slot";
        reindex(slot);
        track(slot, watermark);
    }
}
