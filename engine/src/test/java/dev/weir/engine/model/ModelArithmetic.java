package dev.weir.engine.model;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Objects;

/**
 * The model of a result expression's operation over named aggregates, computed exactly with
 * {@link BigDecimal}: {@code a + b}, {@code a - b} at {@code max(sa, sb)}; {@code a * b} at {@code sa + sb};
 * {@code a / b} at {@code max(6, sa, sb)} rounded half-even; {@code -a}; and a literal at the scale it is
 * written with. An empty operand, a division by zero, and a value that does not fit a long at its scale give
 * empty. Test-only; shares no code with the engine.
 *
 * @param operator {@code + - * /}, {@code neg} or {@code literal}.
 * @param left     the left (or only) operand; null for a literal.
 * @param right    the right operand; null for {@code neg} and a literal.
 * @param literal  the literal's value; null otherwise.
 */
public record ModelArithmetic(String operator, ModelResult left, ModelResult right, BigDecimal literal) implements ModelResult
{
    private static final BigDecimal MIN = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal MAX = BigDecimal.valueOf(Long.MAX_VALUE);

    public ModelArithmetic
    {
        Objects.requireNonNull(operator, "operator");
    }

    /** @return {@code a + b}. */
    public static ModelResult plus(final ModelResult a, final ModelResult b)
    {
        return new ModelArithmetic("+", a, b, null);
    }

    /** @return {@code a - b}. */
    public static ModelResult minus(final ModelResult a, final ModelResult b)
    {
        return new ModelArithmetic("-", a, b, null);
    }

    /** @return {@code a * b}. */
    public static ModelResult times(final ModelResult a, final ModelResult b)
    {
        return new ModelArithmetic("*", a, b, null);
    }

    /** @return {@code a / b}. */
    public static ModelResult dividedBy(final ModelResult a, final ModelResult b)
    {
        return new ModelArithmetic("/", a, b, null);
    }

    /** @return {@code -a}. */
    public static ModelResult negated(final ModelResult a)
    {
        return new ModelArithmetic("neg", a, null, null);
    }

    /**
     * @param text a number as written, e.g. {@code 1.25}.
     * @return the literal at its written scale.
     */
    public static ModelResult literal(final String text)
    {
        return new ModelArithmetic("literal", null, null, new BigDecimal(text));
    }

    /**
     * @param value an exact value at its scale.
     * @return the value, or null if its unscaled value does not fit a long.
     */
    static BigDecimal fitting(final BigDecimal value)
    {
        final BigDecimal unscaled = new BigDecimal(value.unscaledValue());
        return unscaled.compareTo(MIN) < 0 || unscaled.compareTo(MAX) > 0 ? null : value;
    }

    @Override
    public int scale()
    {
        return switch (operator)
        {
            case "literal" -> literal.scale();
            case "neg" -> left.scale();
            case "+", "-" -> Math.max(left.scale(), right.scale());
            case "*" -> left.scale() + right.scale();
            case "/" -> Math.max(6, Math.max(left.scale(), right.scale()));
            default -> throw new IllegalStateException("unknown operator " + operator);
        };
    }

    @Override
    public BigDecimal over(final List<ModelEntry> window)
    {
        if (literal != null)
        {
            return literal;
        }
        final BigDecimal a = left.over(window);
        if (a == null)
        {
            return null;
        }
        if (right == null)
        {
            return fitting(a.negate());
        }
        final BigDecimal b = right.over(window);
        if (b == null)
        {
            return null;
        }
        final BigDecimal exact = switch (operator)
        {
            case "+" -> a.add(b).setScale(scale());
            case "-" -> a.subtract(b).setScale(scale());
            case "*" -> a.multiply(b);
            case "/" -> b.signum() == 0 ? null : a.divide(b, scale(), RoundingMode.HALF_EVEN);
            default -> throw new IllegalStateException("unknown operator " + operator);
        };
        return exact == null ? null : fitting(exact);
    }
}
