package dev.weir.test;

import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;

/**
 * One event the driver's pipeline skipped as late and side-output ({@code LatePolicy.SIDE}): a copy, as a
 * value to assert on. Its value is a long in the value's unit (unscaled for a decimal; {@link #decimalValue()}
 * reads it at the value's scale).
 * <p>
 * Immutable and thread-safe; equal when every field is.
 */
public final class TestLateEvent
{
    private final long eventId;
    private final long eventTime;
    private final List<String> keyValues;
    private final String key;
    private final long value;
    private final long offset;
    private final int scale;

    TestLateEvent(final long eventId, final long eventTime, final String key, final List<String> keyValues, final long value, final long offset, final int scale)
    {
        this.eventId = eventId;
        this.eventTime = eventTime;
        this.keyValues = List.copyOf(keyValues);
        this.key = key;
        this.value = value;
        this.offset = offset;
        this.scale = scale;
    }

    /** @return the event's id. */
    public long eventId()
    {
        return eventId;
    }

    /** @return the event's time, epoch ms. */
    public long eventTime()
    {
        return eventTime;
    }

    /** @return the key as text, as {@link TestResult#key()}. */
    public String key()
    {
        return key;
    }

    /** @return the key's values, one per key column. */
    public List<String> keyValues()
    {
        return keyValues;
    }

    /** @return the event's value, in the value's unit (unscaled for a decimal). */
    public long value()
    {
        return value;
    }

    /** @return the value at the value's scale. */
    public BigDecimal decimalValue()
    {
        return BigDecimal.valueOf(value, scale);
    }

    /** @return the event's offset (the driver's offsets). */
    public long offset()
    {
        return offset;
    }

    @Override
    public boolean equals(final Object other)
    {
        if (!(other instanceof TestLateEvent))
        {
            return false;
        }
        final TestLateEvent e = (TestLateEvent)other;
        return eventId == e.eventId && eventTime == e.eventTime && keyValues.equals(e.keyValues) && value == e.value && offset == e.offset
            && scale == e.scale;
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(eventId, eventTime, keyValues, value, offset, scale);
    }

    /** @return e.g. {@code LATE c1 id=7 time=1000 value=12.50 @9}. */
    @Override
    public String toString()
    {
        return "LATE " + key + " id=" + eventId + " time=" + eventTime + " value=" + decimalValue().toPlainString() + " @" + offset;
    }
}
