package dev.weir.engine.fired;

import dev.weir.journal.codec.LateFields;

/**
 * The fields of an event skipped as late, as the engine fills them (engine use); a listener sees them through a
 * {@link dev.weir.engine.emit.LateEvent}, which has no setters.
 * <p>
 * A reusable flyweight. Not thread-safe: one owner thread.
 */
public final class SkippedEvent implements LateFields
{
    private long eventId;
    private long eventTime;
    private int keyId;
    private long value;
    private long offset;

    /**
     * Fill the flyweight.
     *
     * @param eventId   event id.
     * @param eventTime event time.
     * @param keyId     key id.
     * @param value     value.
     * @param offset    journal offset of the event.
     * @return this.
     */
    public SkippedEvent set(final long eventId, final long eventTime, final int keyId, final long value, final long offset)
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
