package dev.weir.journal;

/**
 * Receives events read from the journal, one call per event, in journal order, on the reading thread.
 * Primitive arguments only: nothing is allocated per event.
 */
@FunctionalInterface
public interface EventConsumer
{
    /**
     * @param offset    the event's journal offset (its queue index).
     * @param eventId   the event's id.
     * @param eventTime the event's time, epoch ms.
     * @param keyId     the dense id of the event's key (see {@link KeyDictionary}).
     * @param value     the event's value.
     */
    void onEvent(long offset, long eventId, long eventTime, int keyId, long value);
}
