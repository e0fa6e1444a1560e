package dev.weir.journal;

import dev.weir.journal.codec.EventConsumer;
import dev.weir.journal.schema.EventView;
import dev.weir.journal.schema.TableRowView;

/**
 * Receives whole events from a {@link JournalReader}, in offset order, on the reading thread, and the heartbeats
 * among them ({@link #onHeartbeat}) and the table rows ({@link #onTableRow}).
 */
@FunctionalInterface
public interface EventViewConsumer
{
    /**
     * @param offset the event's journal offset.
     * @param event  the event; valid only during this call.
     */
    void onEvent(long offset, EventView event);

    /**
     * A heartbeat was read (see {@link EventConsumer#onHeartbeat}). Ignored by default.
     *
     * @param offset    the heartbeat's journal offset.
     * @param eventTime its event time, epoch ms.
     */
    default void onHeartbeat(final long offset, final long eventTime)
    {
    }

    /**
     * A table row was read: handed in journal order with the events. The rows of cycles retention removed (kept in
     * the history base) are handed first, before the first document after the base, with their original offsets.
     * Ignored by default.
     *
     * @param offset the row's journal offset.
     * @param row    the row; valid only during this call.
     */
    default void onTableRow(final long offset, final TableRowView row)
    {
    }
}
