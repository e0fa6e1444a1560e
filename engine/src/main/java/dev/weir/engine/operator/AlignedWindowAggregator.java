package dev.weir.engine.operator;

import dev.weir.engine.emit.LateListener;
import dev.weir.engine.emit.ResultListener;
import dev.weir.engine.source.EventSlot;
import dev.weir.engine.window.AlignedWindows;
import dev.weir.engine.state.FiringSchedule;
import dev.weir.engine.state.KeyWindowIndex;
import dev.weir.engine.state.StartChains;
import dev.weir.engine.state.WindowSlots;

/**
 * Aggregation for tumbling and sliding windows: an event's value is added to each of its non-late
 * windows, one slot per open (key, window).
 * <p>
 * Windows of one start all end together: they are kept in one chain per start ({@link StartChains}), which
 * carries the start's one timer, so a window costs no timer state and firing walks a list instead of
 * popping a heap entry per window.
 * <p>
 * The index ({@link KeyWindowIndex}) finds a window by key id and slide index ({@code start / slide}):
 * a run of entries per key, so an event's windows are found in one or two cache lines without hashing,
 * and an overflow map for the rare collision. No boxing, no allocation in steady state. Slide indexes
 * are compared modulo 2^32 in the overflow map, which is unique among open windows because their starts
 * always lie within {@code D + A + size} of each other, which {@link OperatorConfiguration} checks is fewer than
 * 2^31 slides. With early rows once per key, the windows of the key a window overlaps are found through the
 * same index. Built by {@link OperatorConfiguration#newAggregator}. Not thread-safe: one owner thread.
 */
public final class AlignedWindowAggregator extends WindowAggregator
{
    private final AlignedWindows windows;
    private final long size;
    private final long slide;
    private final KeyWindowIndex index;
    private final StartChains chains;

    /**
     * @param configuration what to compute.
     * @param windows       its window spec: tumbling or sliding windows.
     * @param results       receives results.
     * @param late          receives skipped events under {@link dev.weir.engine.time.LatePolicy#SIDE}.
     */
    AlignedWindowAggregator(
        final OperatorConfiguration configuration,
        final AlignedWindows windows,
        final ResultListener results,
        final LateListener late)
    {
        super(configuration, results, late, 64, windows.size());
        assert windows == configuration.window() : "the configuration's windows";
        this.chains = new StartChains(slots);
        this.windows = windows;
        this.size = windows.size();
        this.slide = windows.slide();
        final int indexRingSlides = configuration.indexRingSlides();
        // a key's open windows span (D + A + size) / slide + 1 slide indexes; two more for safety
        final long ringSlides = indexRingSlides > 0 ? indexRingSlides
            : (configuration.outOfOrderness() + lateness.allowedLateness() + size + slide - 1) / slide + 3;
        this.index = new KeyWindowIndex(ringSlides, 1_024, configuration.initialWindows());
    }

    @Override
    protected void aggregate(final EventSlot slot)
    {
        final int keyId = slot.keyId;
        final long value = slot.value;
        final long wm = slot.watermarkBefore;
        long start = slot.firstStart;
        long slideIndex = Math.floorDiv(start, slide);
        for (int i = 0, n = slot.windowCount; i < n; i++, start += slide, slideIndex++)
        {
            int window = find(keyId, slideIndex, start);
            final boolean created = window == WindowSlots.NONE;
            if (created)
            {
                window = slots.allocate(keyId, start, start + size);
                index.put(keyId, slideIndex, window);
                counters.windowsOpened++;
            }
            if (slots.add(window, value, event))
            {
                counters.sumsWrapped++;
            }
            changed(window, created, wm, slot.offset);
        }
    }

    /**
     * @return the open window of this key and slide index (whose start is {@code start}), or {@link WindowSlots#NONE}.
     */
    private int find(final int keyId, final long slideIndex, final long start)
    {
        final int window = index.ringEntry(keyId, slideIndex);
        if (window != WindowSlots.NONE && slots.start(window) == start)
        {
            return window;
        }
        return index.hasOverflow() ? index.overflowEntry(keyId, slideIndex) : WindowSlots.NONE;
    }

    /**
     * Looks up the windows of the key whose starts lie within a window's size of this one's, and that have not
     * fired (their end is after {@code wm}, so their start is after {@code wm - size}): at most
     * {@code 2 * size / slide - 1} index look-ups, done once per window, when its early condition first holds.
     */
    @Override
    protected boolean overlapsPendingEarlyRow(final int slot, final long wm)
    {
        final int keyId = slots.keyId(slot);
        final long start = slots.start(slot);
        final long own = Math.floorDiv(start, slide);
        // starts in (start - size, start + size) overlap [start, start + size); unfired ones also in (wm - size, ...)
        final long first = Math.floorDiv(Math.max(start, wm) - size, slide) + 1;
        final long last = Math.floorDiv(start + size - 1, slide);
        for (long slideIndex = first; slideIndex <= last; slideIndex++)
        {
            if (slideIndex == own)
            {
                continue;
            }
            final int other = find(keyId, slideIndex, slideIndex * slide);
            if (other != WindowSlots.NONE && slots.start(other) == slideIndex * slide && slots.isEarly(other) && slots.end(other) > wm)
            {
                return true;
            }
        }
        return false;
    }

    @Override
    protected boolean canForget(final long eventTime, final int keyId)
    {
        // every window holding eventTime ends by lastStart + size: once that window is late, all are
        return lateness.isWindowLate(windows.lastStart(eventTime) + size, watermark());
    }

    @Override
    protected void track(final int slot, final long wm)
    {
        final long start = slots.start(slot);
        final int chain = chains.add(slot, start);
        if (chain >= 0)
        {
            final long end = slots.end(slot);
            if (end <= wm)
            {
                schedule.schedule(lateness.cleanupTime(end), FiringSchedule.CLEANUP, start, 0, chain);
            }
            else
            {
                schedule.schedule(end, FiringSchedule.FIRE, start, 0, chain);
            }
        }
    }

    /**
     * One timer per window start (all its windows end together), ordered by (time, kind, start); within a
     * start, windows fire in the order they were opened.
     */
    @Override
    protected void fireDue(final long wm, final long offset)
    {
        while (schedule.hasDue(wm))
        {
            final int chain = schedule.pollSlot();
            final long at = schedule.polledTime();
            final long start = schedule.polledStart();
            if (!chains.holds(chain, start))
            {
                continue;
            }
            fireChanged(chain, offset);
            if (schedule.polledKind() == FiringSchedule.FIRE)
            {
                final long cleanup = lateness.cleanupTime(at);
                if (cleanup > wm)
                {
                    schedule.schedule(cleanup, FiringSchedule.CLEANUP, start, 0, chain);
                    continue;
                }
            }
            discardChain(chain);
        }
    }

    private void fireChanged(final int chain, final long offset)
    {
        for (int slot = chains.head(chain); slot != WindowSlots.NONE; slot = slots.link(slot))
        {
            if (slots.isDirty(slot))
            {
                fire(slot, offset);
            }
        }
    }

    private void discardChain(final int chain)
    {
        int slot = chains.head(chain);
        while (slot != WindowSlots.NONE)
        {
            final int next = slots.link(slot);
            discard(slot);
            slot = next;
        }
        chains.free(chain);
    }

    /**
     * Chain by chain, each in the order its windows were opened: the order they fire in.
     */
    @Override
    public void forEachOpenWindow(final StartChains.WindowVisitor visitor)
    {
        chains.forEachWindow(visitor);
    }

    @Override
    protected void reindex(final int slot)
    {
        index.put(slots.keyId(slot), Math.floorDiv(slots.start(slot), slide), slot);
    }

    @Override
    protected void clearIndex()
    {
        index.clear();
        chains.clear();
    }

    @Override
    protected void unindex(final int slot)
    {
        index.remove(slots.keyId(slot), Math.floorDiv(slots.start(slot), slide), slot);
    }

    @Override
    public long retainedBytes()
    {
        return super.retainedBytes() + index.retainedBytes() + chains.retainedBytes();
    }
}
