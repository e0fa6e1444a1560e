package dev.weir.journal.codec;

/**
 * Receives events read from the journal, one call per event, in journal order, on the reading thread, and the
 * heartbeats among them ({@link #onHeartbeat}).
 * Primitive arguments only: nothing is allocated per event.
 */
@FunctionalInterface
public interface EventConsumer
{
    /**
     * @param offset    the event's journal offset (its queue index).
     * @param eventId   the event's id.
     * @param eventTime the event's time, epoch ms.
     * @param keyId     the dense id of the event's key (see {@link dev.weir.journal.KeyDictionary}); in a schema
     *                  other than the default, of its first string column's value (0 if it has none).
     * @param value     the event's value; in a schema other than the default, its first long or decimal
     *                  column's (0 if it has none).
     */
    void onEvent(long offset, long eventId, long eventTime, int keyId, long value);

    /**
     * A heartbeat was read: no event, but the watermark may advance as an event of {@code eventTime} would
     * move it. Ignored by default.
     *
     * @param offset    the heartbeat's journal offset.
     * @param eventTime its event time, epoch ms.
     */
    default void onHeartbeat(final long offset, final long eventTime)
    {
    }
}
