package dev.weir.engine.emit;

import dev.weir.journal.codec.LateFields;

/**
 * An event skipped because every window it belongs to is already late: the row
 * {@code event_id,event_time,key,value}.
 * <p>
 * A reusable flyweight, valid only during {@link LateListener#onLate(LateEvent)}: copy what you keep.
 * Not thread-safe.
 */
public final class LateEvent implements LateFields
{
    private long eventId;
    private long eventTime;
    private int keyId;
    private long value;
    private long offset;

    /**
     * Fill the flyweight (engine use).
     *
     * @param eventId   event id.
     * @param eventTime event time.
     * @param keyId     key id.
     * @param value     value.
     * @param offset    journal offset of the event.
     * @return this.
     */
    public LateEvent set(final long eventId, final long eventTime, final int keyId, final long value, final long offset)
    {
        this.eventId = eventId;
        this.eventTime = eventTime;
        this.keyId = keyId;
        this.value = value;
        this.offset = offset;
        return this;
    }

    /** @return the event id. */
    @Override
    public long eventId()
    {
        return eventId;
    }

    /** @return the event time, ms. */
    @Override
    public long eventTime()
    {
        return eventTime;
    }

    /** @return the key id. */
    @Override
    public int keyId()
    {
        return keyId;
    }

    /** @return the value. */
    @Override
    public long value()
    {
        return value;
    }

    /** @return the journal offset of the event. */
    @Override
    public long offset()
    {
        return offset;
    }
}
