package dev.weir.engine.operator;

import dev.weir.engine.state.DuplicateFilter;
import dev.weir.engine.state.StartChains;
import dev.weir.engine.state.WindowSlots;

/**
 * The whole state of the aggregation stage, as the checkpoint codec reads and restores it: the watermark,
 * the last offset applied, the counters, the ids remembered for dedupe, and the open windows in their
 * slots. Timers are not part of it: they follow from the windows and the watermark, and are rescheduled
 * as each window is restored.
 * <p>
 * A restore is {@link #beginRestore(long, long)}, then {@link #restoreRememberedId(long, long, int)} per
 * id in the order {@link #forEachRememberedId} visited them, then per window, in the order
 * {@link #forEachOpenWindow} visited them: {@link WindowSlots#restore} on {@link #slots()} (and its user
 * aggregation state), then {@link #windowRestored(int)}. That order rebuilds the state exactly, including
 * the order in which windows due together fire.
 * <p>
 * Not thread-safe: the aggregation stage's thread, between two events.
 */
public interface OperatorState
{
    /** @return the watermark after the last slot applied. */
    long watermark();

    /** @return the journal offset of the last event applied, or -1. */
    long lastOffset();

    /** @return the counters, owned by the stage's thread. */
    OperatorCounters counters();

    /** @return true if events whose id was already seen are ignored, so ids are remembered. */
    boolean dedupe();

    /** @return ids remembered for dedupe (0 when dedupe is off). */
    int rememberedIds();

    /**
     * Visit every remembered id, oldest first; nothing without dedupe.
     *
     * @param consumer receives each id with its event time and key id; must not change the state.
     */
    void forEachRememberedId(DuplicateFilter.EntryConsumer consumer);

    /**
     * Give every open window a slot in {@link #slots()} holding its whole aggregate, before the state is read for a
     * checkpoint; the rows that follow are those that would have followed. By default there is nothing to do: every
     * window has its slot.
     */
    default void settle()
    {
    }

    /** @return the slots of the open windows: read to write a window, written to restore one. */
    WindowSlots slots();

    /**
     * Visit every open window's slot in the order a restore must re-create them.
     *
     * @param visitor receives each slot; must not change the state.
     */
    void forEachOpenWindow(StartChains.WindowVisitor visitor);

    /**
     * Empty the state (windows, index, timers, remembered ids) and set the watermark and last offset, before
     * the rest of a restored state is added. The counters are restored by the caller.
     *
     * @param watermark  the restored watermark.
     * @param lastOffset the restored last offset, or -1.
     */
    void beginRestore(long watermark, long lastOffset);

    /**
     * Remember a restored id (dedupe on only).
     *
     * @param eventId   the id.
     * @param eventTime its event time.
     * @param keyId     its key id.
     */
    void restoreRememberedId(long eventId, long eventTime, int keyId);

    /**
     * A window was just restored into {@code slot} with {@link WindowSlots#restore}: index it and reschedule
     * its timers against the restored watermark (a window whose end the watermark has not reached fires at
     * its end; one that has fired waits for its cleanup time).
     *
     * @param slot the restored window's slot.
     */
    void windowRestored(int slot);
}
