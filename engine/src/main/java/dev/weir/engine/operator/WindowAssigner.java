package dev.weir.engine.operator;

import dev.weir.engine.source.EventSlot;
import dev.weir.engine.time.Lateness;
import dev.weir.engine.time.Watermark;
import dev.weir.engine.window.AlignedWindows;
import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.WindowSpec;

/**
 * The first stage: tracks the watermark and decides, for each event, which of its windows are not late.
 * <p>
 * For aligned windows it writes the first non-late window start and how many consecutive windows follow;
 * an event with none is {@link EventSlot#SKIPPED} if it is itself late ({@code t + A < wm}) and
 * {@link EventSlot#IGNORED} otherwise. A {@link EventSlot#HEARTBEAT} or {@link EventSlot#FILTERED} only moves the watermark, exactly as an
 * event of its time would. For sessions it writes the event's own session start; merging
 * and its lateness check belong to the aggregation stage, which owns the sessions.
 * Arithmetic only, no allocation. Built by {@link OperatorConfiguration#newAssigner()}. Not thread-safe: one
 * owner thread.
 */
public final class WindowAssigner
{
    private final Watermark watermark;
    private final Lateness lateness;
    private final boolean aligned;
    private final long size;
    private final long slide;
    private final AlignedWindows alignedWindows;

    /**
     * @param windows        the window spec.
     * @param outOfOrderness D, ms.
     * @param lateness       the lateness rules.
     */
    WindowAssigner(final WindowSpec windows, final long outOfOrderness, final Lateness lateness)
    {
        this.watermark = new Watermark(outOfOrderness);
        this.lateness = lateness;
        if (windows instanceof AlignedWindows)
        {
            alignedWindows = (AlignedWindows)windows;
            aligned = true;
            size = alignedWindows.size();
            slide = alignedWindows.slide();
        }
        else
        {
            alignedWindows = null;
            aligned = false;
            size = ((SessionWindows)windows).gap();
            slide = 0;
        }
    }

    /**
     * Judge one slot and advance the watermark.
     *
     * @param slot the slot, event fields filled.
     */
    public void assign(final EventSlot slot)
    {
        final long wm = watermark.current();
        slot.watermarkBefore = wm;
        if (slot.type == EventSlot.HEARTBEAT || slot.type == EventSlot.FILTERED)
        {
            // as an event of that time would, never backwards; a position (no time) leaves it
            slot.watermarkAfter = slot.eventTime == EventSlot.NO_TIME ? wm : watermark.observe(slot.eventTime);
            return;
        }
        if (slot.type != EventSlot.EVENT)
        {
            slot.watermarkAfter = slot.type == EventSlot.END_OF_INPUT ? watermark.endOfInput() : wm;
            return;
        }
        final long t = slot.eventTime;
        if (aligned)
        {
            final long last = alignedWindows.lastStart(t);
            long first = alignedWindows.firstStart(t);
            while (first <= last && lateness.isWindowLate(first + size, wm))
            {
                first += slide;
            }
            if (first <= last)
            {
                slot.disposition = EventSlot.ASSIGNED;
                slot.firstStart = first;
                slot.windowCount = (int)((last - first) / slide) + 1;
            }
            else
            {
                slot.disposition = lateness.isEventLate(t, wm) ? EventSlot.SKIPPED : EventSlot.IGNORED;
                slot.windowCount = 0;
            }
        }
        else
        {
            slot.disposition = EventSlot.ASSIGNED;
            slot.firstStart = t;
            slot.windowCount = 1;
        }
        slot.watermarkAfter = watermark.observe(t);
    }

    /**
     * @return the watermark after the last slot assigned.
     */
    public long watermark()
    {
        return watermark.current();
    }

    /**
     * Restore the watermark, e.g. from a checkpoint.
     *
     * @param value the watermark.
     */
    public void restoreWatermark(final long value)
    {
        watermark.reset(value);
    }
}
