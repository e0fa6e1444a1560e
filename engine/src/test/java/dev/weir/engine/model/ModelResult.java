package dev.weir.engine.model;

import java.math.BigDecimal;
import java.util.List;

/**
 * The model of one named aggregate's value over a window: a single call ({@link ModelCall}) or a result
 * expression over calls ({@link ModelArithmetic}), computed exactly with {@link BigDecimal}. Test-only;
 * shares no code with the engine.
 */
public interface ModelResult
{
    /** @return the scale of every value of this result: 0..18. */
    int scale();

    /**
     * @param window the events added to the window, in journal order.
     * @return the value at {@link #scale}, or null when empty.
     */
    BigDecimal over(List<ModelEntry> window);

    /** @return {@code this + other}. */
    default ModelResult plus(final ModelResult other)
    {
        return ModelArithmetic.plus(this, other);
    }

    /** @return {@code this - other}. */
    default ModelResult minus(final ModelResult other)
    {
        return ModelArithmetic.minus(this, other);
    }

    /** @return {@code this * other}. */
    default ModelResult times(final ModelResult other)
    {
        return ModelArithmetic.times(this, other);
    }

    /** @return {@code this / other}. */
    default ModelResult dividedBy(final ModelResult other)
    {
        return ModelArithmetic.dividedBy(this, other);
    }

    /** @return {@code -this}. */
    default ModelResult negated()
    {
        return ModelArithmetic.negated(this);
    }
}
