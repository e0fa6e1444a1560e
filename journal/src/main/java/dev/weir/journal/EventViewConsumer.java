package dev.weir.journal;

import dev.weir.journal.codec.EventConsumer;
import dev.weir.journal.schema.EventView;

/**
 * Receives whole events from a {@link JournalReader}, in offset order, on the reading thread, and the heartbeats
 * among them ({@link #onHeartbeat}).
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
}
