package dev.weir.engine.model;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The model of one call of a named aggregate, {@code FUNCTION(VALUE) [filter (where FILTER)]}, over the
 * window's events its filter keeps, straight from /work/wt/i33-API.md section 2: {@code count} counts (0 when
 * none), {@code sum} wraps as 64-bit two's complement, {@code min}/{@code max} of the (wrapped) values,
 * {@code first}/{@code last} the value of the event with the least/greatest (event time, journal offset),
 * {@code avg} the sum (wrapped, as {@code sum}'s) over the count, exactly, at scale {@code max(6, scale)} rounded
 * half-even (empty if it does not fit a long there). Every function but {@code count} is empty when the filter keeps no event.
 * Test-only; shares no code with the engine.
 *
 * @param function count, sum, min, max, first, last or avg.
 * @param value    the VALUE, null for count.
 * @param filter   the FILTER, as the model's own predicate (all events when there is none).
 */
public record ModelCall(String function, ModelValue value, Predicate<ModelEvent> filter) implements ModelResult
{
    private static final Predicate<ModelEvent> ALL = e -> true;

    public ModelCall
    {
        Objects.requireNonNull(function, "function");
        Objects.requireNonNull(filter, "filter");
        if (!List.of("count", "sum", "min", "max", "first", "last", "avg").contains(function))
        {
            throw new IllegalArgumentException("not a function of the model: " + function);
        }
        if (function.equals("count") != (value == null))
        {
            throw new IllegalArgumentException("count takes no value, the others one: " + function);
        }
    }

    /** @return {@code count()}. */
    public static ModelCall count()
    {
        return new ModelCall("count", null, ALL);
    }

    /**
     * @param function sum, min, max, first, last or avg.
     * @param v        its VALUE.
     * @return {@code function(v)}.
     */
    public static ModelCall call(final String function, final ModelValue v)
    {
        return new ModelCall(function, Objects.requireNonNull(v, "v"), ALL);
    }

    /**
     * @param keep the filter.
     * @return this call with {@code filter (where ...)}.
     */
    public ModelCall where(final Predicate<ModelEvent> keep)
    {
        return new ModelCall(function, value, keep);
    }

    @Override
    public int scale()
    {
        if (value == null)
        {
            return 0;
        }
        return function.equals("avg") ? Math.max(6, value.scale()) : value.scale();
    }

    @Override
    public BigDecimal over(final List<ModelEntry> window)
    {
        final List<ModelEntry> kept = window.stream().filter(e -> filter.test(e.event())).toList();
        if (value == null)
        {
            return BigDecimal.valueOf(kept.size());
        }
        if (kept.isEmpty())
        {
            return null;
        }
        final List<Long> values = kept.stream().map(e -> value.of(e.event())).toList();
        final BigInteger total = values.stream().map(BigInteger::valueOf).reduce(BigInteger.ZERO, BigInteger::add);
        return switch (function)
        {
            case "sum" -> BigDecimal.valueOf(total.longValue(), scale()); // wraps
            case "min" -> BigDecimal.valueOf(Collections.min(values), scale());
            case "max" -> BigDecimal.valueOf(Collections.max(values), scale());
            case "first" -> BigDecimal.valueOf(value.of(Collections.min(kept, ModelEntry.BY_TIME_THEN_OFFSET).event()), scale());
            case "last" -> BigDecimal.valueOf(value.of(Collections.max(kept, ModelEntry.BY_TIME_THEN_OFFSET).event()), scale());
            case "avg" -> ModelArithmetic.fitting(BigDecimal.valueOf(total.longValue(), value.scale())
                .divide(BigDecimal.valueOf(kept.size()), scale(), RoundingMode.HALF_EVEN));
            default -> throw new IllegalStateException("unknown function " + function);
        };
    }
}
