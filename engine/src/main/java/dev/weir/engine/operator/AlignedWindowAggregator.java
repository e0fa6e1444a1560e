package dev.weir.engine.operator;

import java.util.Arrays;

import dev.weir.engine.emit.LateListener;
import dev.weir.engine.emit.ResultListener;
import dev.weir.engine.source.EventSlot;
import dev.weir.engine.window.AlignedWindows;
import dev.weir.engine.state.FiringSchedule;
import dev.weir.engine.state.KeyWindowIndex;
import dev.weir.engine.state.SlidePanes;
import dev.weir.engine.state.StartChains;
import dev.weir.engine.state.WindowSlots;

/**
 * Aggregation for tumbling and sliding windows: without panes, an event's value is added to each of its non-late
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
 * same index.
 * <p>
 * With panes ({@link OperatorConfiguration#panes()}: sliding windows whose size is a multiple of the slide), an event
 * is added once, to its key's pane of its slide ({@link SlidePanes}), and a window's row combines its
 * {@code size / slide} panes (and its slot's aggregate, which holds what they do not: a restored window's content).
 * A window has no slot until it fires: it is pending in its start's chain, by key id, in the order windows were
 * opened ({@link StartChains#addPending}); when its start fires, each pending window fires from its panes and, if
 * allowed lateness keeps it, gets a slot (fired once), else is discarded. Windows are opened, fired, re-fired and
 * discarded one by one, in the order and with the versions of the per-window path, so the rows are the same.
 * <p>
 * An event whose pane is open and none of whose windows has ended touches only its pane: the pane's first event
 * opened its windows, which fire at their end. The first event of a pane beyond the key's last window (the usual
 * case) opens only the windows above that one; any other event (the first of its pane out of order, or one late for
 * a window that fired) visits its windows as without panes. A window's sum wraps only once a value of 2^31 or more
 * in magnitude is in it (or 2^32 events are): from the first such value on, every event visits its windows to
 * count the sums that wrap, as without panes. Before a checkpoint, {@link #settle()} gives every pending window a
 * slot and folds the panes into the slots, so the checkpoint is the one the per-window path writes (same format),
 * and either path resumes from it.
 * <p>
 * Built by {@link OperatorConfiguration#newAggregator}. Not thread-safe: one owner thread.
 */
public final class AlignedWindowAggregator extends WindowAggregator
{
    /** Below this magnitude, values cannot wrap a window's sum (short of 2^32 events in one window). */
    private static final long NARROW = 1L << 31;
    /** No window of the key opened. */
    private static final long NO_WINDOW = Long.MIN_VALUE;

    private final AlignedWindows windows;
    private final long size;
    private final long slide;
    private final KeyWindowIndex index;
    private final StartChains chains;
    /** The panes, or null for one aggregate per window. */
    private final SlidePanes panes;
    private final int panesPerWindow;
    /** A window's row, combined from its slot and panes (with panes). */
    private final WindowSlots row;
    private final int rowSlot;
    private final StartChains.WindowVisitor foldPanes = this::foldPanes;
    /** True once a value a window's sum could wrap on was added, or restored (with panes). */
    private boolean wideValues;
    /**
     * Per key id (with panes): the highest slide index of a window ever opened or restored, or {@link #NO_WINDOW}. No
     * window of the key above it exists; the event that opened it (or, restored, the one that did in the run that
     * wrote the checkpoint) was the first of that pane and opened every window of it not yet late, so of a later
     * pane's windows those up to it exist if they are not late, and those above it do not.
     */
    private long[] lastWindow;

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
        if (configuration.panes())
        {
            this.panesPerWindow = (int)(size / slide);
            // a key's open panes span (D + A + size) / slide + 1 pane indexes
            final long paneSpan = (configuration.outOfOrderness() + lateness.allowedLateness() + size + slide - 1) / slide + 1;
            this.panes = new SlidePanes(slide, paneSpan, 1_024, configuration.initialWindows() / panesPerWindow);
            this.row = new WindowSlots(16, size, configuration.newSlotAggregations());
            this.rowSlot = row.allocate(0, 0, size);
            this.lastWindow = new long[1_024];
            Arrays.fill(lastWindow, NO_WINDOW);
        }
        else
        {
            this.panesPerWindow = 0;
            this.panes = null;
            this.row = null;
            this.rowSlot = WindowSlots.NONE;
        }
    }

    @Override
    protected void aggregate(final EventSlot slot)
    {
        if (panes != null)
        {
            aggregateInPanes(slot);
            return;
        }
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

    private void aggregateInPanes(final EventSlot slot)
    {
        final int keyId = slot.keyId;
        final long value = slot.value;
        final long wm = slot.watermarkBefore;
        final int n = slot.windowCount;
        long start = slot.firstStart;
        long slideIndex = Math.floorDiv(start, slide);
        final long paneIndex = slideIndex + n - 1;
        if (value <= -NARROW || value >= NARROW)
        {
            wideValues = true;
        }
        final boolean opened = panes.add(keyId, paneIndex, value);
        if (!opened && start + size > wm && !wideValues)
        {
            return;
        }
        final long last = lastWindow(keyId);
        if (paneIndex > last && start + size > wm && !wideValues)
        {
            // the first event of a new pane, in order: the windows up to the last opened exist and are marked changed
            // (none has ended), the others are opened
            lastWindow[keyId] = paneIndex;
            for (long next = Math.max(slideIndex, last + 1); next <= paneIndex; next++)
            {
                openPending(keyId, next * slide);
            }
            return;
        }
        lastWindow[keyId] = Math.max(last, paneIndex);
        for (int i = 0; i < n; i++, start += slide, slideIndex++)
        {
            final int window = find(keyId, slideIndex, start);
            if (window != WindowSlots.NONE)
            {
                if (wideValues && wrappedBy(slots.sum(window), keyId, slideIndex, value))
                {
                    counters.sumsWrapped++;
                }
                slots.markChanged(window);
                changed(window, false, wm, slot.offset);
            }
            else if (start + size <= wm)
            {
                // a new window the watermark has passed: it fires at once, with a slot
                final int late = slots.allocate(keyId, start, start + size);
                index.put(keyId, slideIndex, late);
                counters.windowsOpened++;
                if (wideValues && wrappedBy(0, keyId, slideIndex, value))
                {
                    counters.sumsWrapped++;
                }
                slots.markChanged(late);
                changed(late, true, wm, slot.offset);
            }
            else
            {
                // pending (none has ended), if another of its panes opened it
                if (!panes.anyOpen(keyId, slideIndex, panesPerWindow, opened ? paneIndex : Long.MIN_VALUE))
                {
                    openPending(keyId, start);
                }
                if (wideValues && wrappedBy(0, keyId, slideIndex, value))
                {
                    counters.sumsWrapped++;
                }
            }
        }
    }

    /** Open a window without a slot, one the watermark has not passed: it fires, with its panes, at its end. */
    private void openPending(final int keyId, final long start)
    {
        counters.windowsOpened++;
        final int chain = chains.addPending(keyId, start);
        if (chain >= 0)
        {
            schedule.schedule(start + size, FiringSchedule.FIRE, start, 0, chain);
        }
    }

    /** @return the key's {@link #lastWindow}, the array grown to hold it. */
    private long lastWindow(final int keyId)
    {
        if (keyId >= lastWindow.length)
        {
            final int old = lastWindow.length;
            lastWindow = Arrays.copyOf(lastWindow, Math.max(keyId + 1, 2 * old));
            Arrays.fill(lastWindow, old, lastWindow.length, NO_WINDOW);
        }
        return lastWindow[keyId];
    }

    /**
     * @return true if adding {@code value} to the window's sum, the last addition to its panes, wrapped it.
     */
    private boolean wrappedBy(final long base, final int keyId, final long slideIndex, final long value)
    {
        long after = base;
        for (long paneIndex = slideIndex, end = slideIndex + panesPerWindow; paneIndex < end; paneIndex++)
        {
            after += panes.sum(keyId, paneIndex);
        }
        final long before = after - value;
        return ((before ^ after) & (value ^ after)) < 0;
    }

    @Override
    protected WindowSlots rowSlots()
    {
        return panes == null ? slots : row;
    }

    @Override
    protected int rowSlot(final int slot)
    {
        if (panes == null)
        {
            return slot;
        }
        row.copyWindow(rowSlot, slots, slot);
        panes.combineInto(row, rowSlot, slots.keyId(slot), Math.floorDiv(slots.start(slot), slide), panesPerWindow);
        return rowSlot;
    }

    /** Fold a window's panes into its slot (before a checkpoint, the panes are closed afterwards). */
    private void foldPanes(final int window)
    {
        panes.combineInto(slots, window, slots.keyId(window), Math.floorDiv(slots.start(window), slide), panesPerWindow);
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
            final boolean kept = schedule.polledKind() == FiringSchedule.FIRE && lateness.cleanupTime(at) > wm;
            if (panes != null && chains.pendingCount(chain) > 0)
            {
                firePending(chain, start, kept, offset);
            }
            if (kept)
            {
                schedule.schedule(lateness.cleanupTime(at), FiringSchedule.CLEANUP, start, 0, chain);
                continue;
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

    /**
     * Fire a chain's pending windows, in order, after its windows with slots (opened before them): each with its
     * panes, version 0. Those kept until their cleanup time get a slot (fired once, unchanged since); the others are
     * discarded, closing the pane each starts with.
     */
    private void firePending(final int chain, final long start, final boolean kept, final long offset)
    {
        final long firstPane = Math.floorDiv(start, slide);
        for (int i = 0, n = chains.pendingCount(chain); i < n; i++)
        {
            final int keyId = chains.pendingKey(chain, i);
            row.resetWindow(rowSlot, keyId, start);
            panes.combineInto(row, rowSlot, keyId, firstPane, panesPerWindow);
            firePending(row, rowSlot, offset);
            if (kept)
            {
                final int window = slots.allocate(keyId, start, start + size);
                slots.markFired(window);
                index.put(keyId, firstPane, window);
                chains.add(window, start);
            }
            else
            {
                panes.close(keyId, firstPane);
            }
        }
        chains.clearPending(chain);
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

    /**
     * With panes: every pending window gets a slot, at the end of its chain (it was opened after the others), and
     * every window's slot then takes its panes' aggregate, as without panes; the panes are closed (the next event of
     * a pane opens it again, and its windows, all open, take it from there).
     */
    @Override
    public void settle()
    {
        if (panes == null)
        {
            return;
        }
        for (int chain = 0, n = chains.chainIds(); chain < n; chain++)
        {
            if (chains.isLive(chain) && chains.pendingCount(chain) > 0)
            {
                final long start = chains.start(chain);
                for (int i = 0, pending = chains.pendingCount(chain); i < pending; i++)
                {
                    final int keyId = chains.pendingKey(chain, i);
                    final int window = slots.allocate(keyId, start, start + size);
                    slots.markChanged(window);
                    index.put(keyId, Math.floorDiv(start, slide), window);
                    chains.add(window, start);
                }
                chains.clearPending(chain);
            }
        }
        if (panes.open() > 0)
        {
            chains.forEachWindow(foldPanes);
            panes.clear();
        }
    }

    @Override
    public int openWindows()
    {
        return slots.open() + (int)chains.pendingWindows();
    }

    @Override
    protected void reindex(final int slot)
    {
        final long slideIndex = Math.floorDiv(slots.start(slot), slide);
        index.put(slots.keyId(slot), slideIndex, slot);
        if (panes != null)
        {
            final int keyId = slots.keyId(slot);
            final long last = lastWindow(keyId); // grows the array first: an array access evaluates its array before its value
            lastWindow[keyId] = Math.max(last, slideIndex);
            if (slots.count(slot) > 0 && (slots.min(slot) <= -NARROW || slots.max(slot) >= NARROW || slots.count(slot) >= 1L << 32))
            {
                wideValues = true;
            }
        }
    }

    @Override
    protected void clearIndex()
    {
        index.clear();
        chains.clear();
        if (panes != null)
        {
            panes.clear();
            wideValues = false;
            Arrays.fill(lastWindow, NO_WINDOW);
        }
    }

    @Override
    protected void unindex(final int slot)
    {
        final long slideIndex = Math.floorDiv(slots.start(slot), slide);
        index.remove(slots.keyId(slot), slideIndex, slot);
        if (panes != null)
        {
            // the window that starts with a pane is the last to hold it
            panes.close(slots.keyId(slot), slideIndex);
        }
    }

    /**
     * @return true if this aggregation keeps panes ({@link OperatorConfiguration#panes()}).
     */
    public boolean keepsPanes()
    {
        return panes != null;
    }

    @Override
    public long retainedBytes()
    {
        return super.retainedBytes() + index.retainedBytes() + chains.retainedBytes()
            + (panes == null ? 0 : panes.retainedBytes() + row.retainedBytes());
    }
}
