package dev.weir.engine.emit;

import java.math.BigDecimal;

import dev.weir.journal.codec.LateFields;

/**
 * An event skipped because every window it belongs to is already late: the row
 * {@code event_id,event_time,key,value}.
 * <p>
 * {@link #key()} is the key's text and {@link #keyColumn(int)} one key column's, as {@link WindowResult} has them;
 * {@link #appendValue(StringBuilder)} and {@link #decimalValue()} give the value at its {@link #scale()}.
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
    /** The key ids' text, or null for an event without it. */
    private final KeyText keys;
    private final int scale;

    /** A late event without key text, of a long value (scale 0): {@link #key()} throws. */
    public LateEvent()
    {
        this(null, 0);
    }

    /**
     * @param keys  the text of the key ids this event will carry (owned by the thread that reads it), or null.
     * @param scale the value's scale: a decimal column's, 0 for a long.
     */
    public LateEvent(final KeyText keys, final int scale)
    {
        this.keys = keys;
        this.scale = scale;
    }

    /** @return an empty late event with this one's key text and scale. */
    LateEvent emptyLike()
    {
        return new LateEvent(keys, scale);
    }

    /**
     * @return the key's text, as {@link WindowResult#key()}: a flyweight, valid during the listener's call.
     * @throws IllegalStateException for an event made without key text.
     */
    public CharSequence key()
    {
        return keyText().key(keyId);
    }

    /**
     * @param index a key column's position in the key.
     * @return that column's value as text; a flyweight, valid until the next call.
     * @throws IllegalStateException for an event made without key text.
     */
    public CharSequence keyColumn(final int index)
    {
        return keyText().column(keyId, index);
    }

    /** @return the fraction digits of the value: a decimal column's scale, 0 for a long. */
    public int scale()
    {
        return scale;
    }

    /**
     * @param to where to append.
     * @return {@code to}, with the value at its scale appended; allocates nothing.
     */
    public StringBuilder appendValue(final StringBuilder to)
    {
        return DecimalText.append(to, value, scale);
    }

    /** @return the value at its scale; allocates a {@link BigDecimal}. */
    public BigDecimal decimalValue()
    {
        return BigDecimal.valueOf(value, scale);
    }

    private KeyText keyText()
    {
        if (keys == null)
        {
            throw new IllegalStateException("this late event was made without key text: use keyId()");
        }
        return keys;
    }

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
