package dev.weir.engine.operator;

import dev.weir.engine.emit.LateListener;
import dev.weir.engine.emit.ResultListener;
import dev.weir.engine.source.EventSlot;
import dev.weir.engine.state.FiringSchedule;
import dev.weir.engine.state.WindowSlots;
import dev.weir.engine.time.Lateness;
import dev.weir.engine.window.SessionWindows;
import org.agrona.collections.Int2IntHashMap;

/**
 * Aggregation for session windows: each event opens {@code [t, t + gap)}, which merges with every open
 * session of its key that it overlaps or touches; the merged session is then checked for lateness
 * (merge before the lateness check, as Apache Flink does).
 * <p>
 * With dedupe, an event whose own window {@code [t, t + gap)} is late ({@code t + gap + A <= wm}) is late
 * even where it would merge into an open session: that is when its id, and any other id of time
 * {@code t}, may be forgotten, so a retry arriving after that must not change a session, whatever it
 * touches (otherwise a session that never closes would have to remember every id it ever held).
 * <p>
 * Each key's open sessions are a chain of slots in start order ({@link WindowSlots#link(int)}), found
 * through an Agrona {@link Int2IntHashMap} from key id to the first slot. A merged session keeps the
 * first slot, folds in the others' aggregates and firing counts (so its next version counts the firings
 * of every session merged into it) and frees them. No allocation in steady state.
 * Built by {@link OperatorConfiguration#newAggregator}. Not thread-safe: one owner thread.
 */
public final class SessionWindowAggregator extends WindowAggregator
{
    private static final int NONE = WindowSlots.NONE;

    private final long gap;
    private final Int2IntHashMap firstSession;

    /**
     * @param configuration what to compute; its user aggregation, if any, is merged when sessions merge.
     * @param windows       its window spec: session windows.
     * @param results       receives results.
     * @param late          receives skipped events under {@link dev.weir.engine.time.LatePolicy#SIDE}.
     */
    SessionWindowAggregator(
        final OperatorConfiguration configuration,
        final SessionWindows windows,
        final ResultListener results,
        final LateListener late)
    {
        super(configuration, results, late, configuration.initialWindows() * 2, 0);
        assert windows == configuration.window() : "the configuration's windows";
        this.gap = windows.gap();
        this.firstSession = new Int2IntHashMap(Math.max(16, configuration.initialWindows() * 2), 0.65f, NONE);
    }

    @Override
    protected void aggregate(final EventSlot slot)
    {
        final int keyId = slot.keyId;
        final long wm = slot.watermarkBefore;
        final long t = slot.eventTime;
        long start = t;
        long end = Lateness.saturatedAdd(t, gap);
        if (dedupe() && lateness.isWindowLate(end, wm))
        {
            late(slot, wm); // its id may already be forgotten: a retry of it must not reach a session
            return;
        }

        // Sessions are chained in start order and do not overlap: the ones to merge are consecutive.
        int previous = NONE;
        int current = firstSession.get(keyId);
        while (current != NONE && slots.end(current) < start)
        {
            previous = current;
            current = slots.link(current);
        }
        if (current == NONE || slots.start(current) > end)
        {
            if (lateness.isWindowLate(end, wm))
            {
                late(slot, wm);
                return;
            }
            final int created = slots.allocate(keyId, start, end);
            counters.windowsOpened++;
            slots.link(created, current);
            if (previous == NONE)
            {
                firstSession.put(keyId, created);
            }
            else
            {
                slots.link(previous, created);
            }
            slots.add(created, slot.value, event); // a new session's first value: its sum cannot wrap
            changed(created, true, wm, slot.offset);
            return;
        }

        final int target = current;
        final long oldStart = slots.start(target);
        final long oldEnd = slots.end(target);
        start = Math.min(start, oldStart);
        end = Math.max(end, oldEnd);
        int next = slots.link(target);
        while (next != NONE && slots.start(next) <= end)
        {
            end = Math.max(end, slots.end(next));
            if (slots.mergeInto(target, next))
            {
                counters.sumsWrapped++;
            }
            final int following = slots.link(next);
            slots.free(next);
            next = following;
        }
        slots.link(target, next);
        slots.bounds(target, start, end);
        if (slots.add(target, slot.value, event))
        {
            counters.sumsWrapped++;
        }
        // A session that only grew later while its end is still ahead of the watermark keeps its pending
        // timer (at or before the old end): when that timer falls due it moves itself to the new end, so
        // the common case (in-order events extending a session) schedules nothing.
        final boolean timerFollows = start == oldStart && end > oldEnd && oldEnd > wm;
        changed(target, !timerFollows && (start != oldStart || end != oldEnd), wm, slot.offset);
    }

    /** An event whose own window is late and that no session takes: skipped, or ignored if not itself late. */
    private void late(final EventSlot slot, final long wm)
    {
        if (lateness.isEventLate(slot.eventTime, wm))
        {
            skip(slot);
        }
        else
        {
            counters.ignored++;
        }
    }

    /**
     * Sessions of one key never overlap (they merge), and the configuration refuses early rows once per key
     * for them.
     */
    @Override
    protected boolean overlapsPendingEarlyRow(final int slot, final long wm)
    {
        return false;
    }

    @Override
    protected boolean canForget(final long eventTime, final int keyId)
    {
        // With dedupe an event whose own window [t, t + gap) is late is late (aggregate), whatever session
        // it touches: once t + gap + A <= wm a retry of it changes no window, and the watermark only grows.
        return lateness.isWindowLate(Lateness.saturatedAdd(eventTime, gap), watermark());
    }

    @Override
    protected void track(final int slot, final long wm)
    {
        final long end = slots.end(slot);
        if (end <= wm)
        {
            schedule.schedule(lateness.cleanupTime(end), FiringSchedule.CLEANUP, slots.start(slot), slots.keyId(slot), slot);
        }
        else
        {
            schedule.schedule(end, FiringSchedule.FIRE, slots.start(slot), slots.keyId(slot), slot);
        }
    }

    /**
     * One timer per session, ordered by (time, kind, start, key id). A session whose start moved or that
     * fired and changed again left its old timers behind: a timer whose slot no longer holds the session it
     * names is skipped. A session that only grew later keeps its timer, which moves to the new end when it
     * falls due (so the firing order is the one a timer at the new end would give).
     */
    @Override
    protected void fireDue(final long wm, final long offset)
    {
        while (schedule.hasDue(wm))
        {
            final int slot = schedule.pollSlot();
            final long at = schedule.polledTime();
            final int key = schedule.polledKey();
            final long start = schedule.polledStart();
            if (schedule.polledKind() == FiringSchedule.FIRE)
            {
                if (!slots.holds(slot, key, start, at))
                {
                    if (slots.holds(slot, key, start, slots.end(slot)) && slots.end(slot) > at)
                    {
                        // the session grew later since this timer was set: fire at its end instead, in the
                        // order that end gives it among the other timers
                        schedule.schedule(slots.end(slot), FiringSchedule.FIRE, start, key, slot);
                    }
                    continue;
                }
                if (slots.isDirty(slot))
                {
                    fire(slot, offset);
                }
                final long cleanup = lateness.cleanupTime(at);
                if (cleanup <= wm)
                {
                    discard(slot);
                }
                else
                {
                    schedule.schedule(cleanup, FiringSchedule.CLEANUP, start, key, slot);
                }
            }
            else if (slots.holds(slot, key, start, slots.end(slot)) && lateness.cleanupTime(slots.end(slot)) == at)
            {
                if (slots.isDirty(slot))
                {
                    fire(slot, offset);
                }
                discard(slot);
            }
        }
    }

    @Override
    protected void reindex(final int slot)
    {
        final int keyId = slots.keyId(slot);
        final long start = slots.start(slot);
        int previous = NONE;
        int current = firstSession.get(keyId);
        while (current != NONE && slots.start(current) < start)
        {
            previous = current;
            current = slots.link(current);
        }
        slots.link(slot, current);
        if (previous == NONE)
        {
            firstSession.put(keyId, slot);
        }
        else
        {
            slots.link(previous, slot);
        }
    }

    @Override
    protected void clearIndex()
    {
        firstSession.clear();
    }

    @Override
    protected void unindex(final int slot)
    {
        final int keyId = slots.keyId(slot);
        final int head = firstSession.get(keyId);
        if (head == slot)
        {
            final int next = slots.link(slot);
            if (next == NONE)
            {
                firstSession.remove(keyId);
            }
            else
            {
                firstSession.put(keyId, next);
            }
            return;
        }
        int previous = head;
        while (previous != NONE && slots.link(previous) != slot)
        {
            previous = slots.link(previous);
        }
        if (previous != NONE)
        {
            slots.link(previous, slots.link(slot));
        }
    }

    @Override
    public long retainedBytes()
    {
        return super.retainedBytes() + (long)firstSession.capacity() * 2 * Integer.BYTES;
    }
}
