package dev.weir.engine.model;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Objects;
import java.util.function.Function;

/**
 * The model of a VALUE (the language of {@code --value}) inside a named aggregate: an event's exact value as
 * an unscaled integer at a fixed scale, then wrapped to 64-bit two's complement as the engine's value
 * arithmetic wraps (exact, then wrapped, is the same as wrapping each {@code + - *}). The columns are those of
 * the six-column payments journal the engine tests write: {@code amount} (the model's value, scale 2),
 * {@code fee} ({@link ModelFilters#fee}), {@code event_id} and {@code event_time}. Test-only; shares no code
 * with the engine.
 *
 * @param scale the value's scale: a column's, a literal's as written, {@code max} for {@code + -}, the sum for {@code *}.
 * @param exact the event's exact unscaled value at {@code scale}, before wrapping.
 */
public record ModelValue(int scale, Function<ModelEvent, BigInteger> exact)
{
    public ModelValue
    {
        Objects.requireNonNull(exact, "exact");
    }

    /** @return {@code amount}: the model's value, scale 2. */
    public static ModelValue amount()
    {
        return new ModelValue(2, e -> BigInteger.valueOf(e.value()));
    }

    /** @return {@code fee}: three times the event id, scale 0. */
    public static ModelValue fee()
    {
        return new ModelValue(0, e -> BigInteger.valueOf(ModelFilters.fee(e)));
    }

    /** @return {@code event_id}. */
    public static ModelValue eventId()
    {
        return new ModelValue(0, e -> BigInteger.valueOf(e.eventId()));
    }

    /** @return {@code event_time}. */
    public static ModelValue eventTime()
    {
        return new ModelValue(0, e -> BigInteger.valueOf(e.eventTime()));
    }

    /**
     * @param text a number as written, e.g. {@code 2.50}.
     * @return the literal, at the scale it is written with.
     */
    public static ModelValue literal(final String text)
    {
        final BigDecimal literal = new BigDecimal(text);
        return new ModelValue(literal.scale(), e -> literal.unscaledValue());
    }

    /** @return {@code this + other} at the larger scale. */
    public ModelValue plus(final ModelValue other)
    {
        final int s = Math.max(scale, other.scale);
        return new ModelValue(s, e -> at(s, e).add(other.at(s, e)));
    }

    /** @return {@code this - other} at the larger scale. */
    public ModelValue minus(final ModelValue other)
    {
        final int s = Math.max(scale, other.scale);
        return new ModelValue(s, e -> at(s, e).subtract(other.at(s, e)));
    }

    /** @return {@code this * other} at the sum of the scales. */
    public ModelValue times(final ModelValue other)
    {
        return new ModelValue(scale + other.scale, e -> BigInteger.valueOf(of(e)).multiply(BigInteger.valueOf(other.of(e))));
    }

    /**
     * @param e the event.
     * @return the event's unscaled value at {@link #scale}, wrapped to 64 bits.
     */
    public long of(final ModelEvent e)
    {
        return exact.apply(e).longValue(); // the low 64 bits: two's complement wrapping
    }

    /** The wrapped value rescaled to {@code s}: the rescaling is exact here and wrapped by the caller's {@link #of}. */
    private BigInteger at(final int s, final ModelEvent e)
    {
        return BigInteger.valueOf(of(e)).multiply(BigInteger.TEN.pow(s - scale));
    }
}
