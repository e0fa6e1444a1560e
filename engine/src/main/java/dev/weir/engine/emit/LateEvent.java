package dev.weir.engine.emit;

import java.math.BigDecimal;
import java.util.Objects;

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
    private final LateFields fields;
    /** The key ids' text, or null for an event without it. */
    private final KeyText keys;
    private final int scale;

    /**
     * A late event over these fields, without key text ({@link #key()} throws), of a long value (scale 0).
     *
     * @param fields the fields it reads, e.g. a stored late event's ({@code LateEventDecoder}).
     */
    public LateEvent(final LateFields fields)
    {
        this(fields, null, 0);
    }

    /**
     * @param fields the fields it reads: the engine's, or a stored late event's.
     * @param keys   the text of the key ids they carry (owned by the thread that reads it), or null.
     * @param scale  the value's scale: a decimal column's, 0 for a long.
     */
    public LateEvent(final LateFields fields, final KeyText keys, final int scale)
    {
        this.fields = Objects.requireNonNull(fields, "fields");
        this.keys = keys;
        this.scale = scale;
    }

    /**
     * @param other other fields.
     * @return a late event over them with this one's key text and scale.
     */
    LateEvent over(final LateFields other)
    {
        return new LateEvent(other, keys, scale);
    }

    /**
     * @return the key's text, as {@link WindowResult#key()}: a flyweight, valid during the listener's call.
     * @throws IllegalStateException for an event made without key text.
     */
    public CharSequence key()
    {
        return keyText().key(keyId());
    }

    /**
     * @param index a key column's position in the key.
     * @return that column's value as text; a flyweight, valid until the next call.
     * @throws IllegalStateException for an event made without key text.
     */
    public CharSequence keyColumn(final int index)
    {
        return keyText().column(keyId(), index);
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
        return DecimalText.append(to, value(), scale);
    }

    /** @return the value at its scale; allocates a {@link BigDecimal}. */
    public BigDecimal decimalValue()
    {
        return BigDecimal.valueOf(value(), scale);
    }

    private KeyText keyText()
    {
        if (keys == null)
        {
            throw new IllegalStateException("this late event was made without key text: use keyId()");
        }
        return keys;
    }

    /** @return the event id. */
    @Override
    public long eventId()
    {
        return fields.eventId();
    }

    /** @return the event time, ms. */
    @Override
    public long eventTime()
    {
        return fields.eventTime();
    }

    /** @return the key id; {@link #key()} is its text. */
    @Override
    public int keyId()
    {
        return fields.keyId();
    }

    /** @return the value, unscaled ({@link #decimalValue()} is at its scale). */
    @Override
    public long value()
    {
        return fields.value();
    }

    /** @return the journal offset of the event. */
    @Override
    public long offset()
    {
        return fields.offset();
    }
}
