package dev.weir.journal;

/**
 * Receives whole events from a {@link JournalReader}, in offset order, on the reading thread.
 */
@FunctionalInterface
public interface EventViewConsumer
{
    /**
     * @param offset the event's journal offset.
     * @param event  the event; valid only during this call.
     */
    void onEvent(long offset, EventView event);
}
