package dev.weir.engine.aggregate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * Exact scaled arithmetic, checked against {@link BigDecimal}: half-even ties, negative operands, division by zero,
 * results that do not fit a long (empty), and random operands of every size at every scale.
 */
class ScaledArithmeticTest
{
    private final ScaledArithmetic arithmetic = new ScaledArithmetic();

    @Test
    void dividesRoundingHalfToEven()
    {
        assertEquals("0", quotient(2, 0, 5, 0, 0), "0.4 rounds down");
        assertEquals("0.400000", quotient(2, 0, 5, 0, 6));
        assertEquals("2", quotient(5, 0, 2, 0, 0), "2.5 rounds to the even 2");
        assertEquals("4", quotient(7, 0, 2, 0, 0), "3.5 rounds to the even 4");
        assertEquals("-2", quotient(-5, 0, 2, 0, 0), "-2.5 rounds to the even -2");
        assertEquals("-4", quotient(7, 0, -2, 0, 0), "-3.5 rounds to the even -4");
        assertEquals("1", quotient(3, 0, 4, 0, 0), "0.75 rounds up: more than half");
        assertEquals("1.28", quotient(257, 2, 2, 0, 2), "1.285 rounds to the even 1.28");
        assertEquals("0.666667", quotient(2, 0, 3, 0, 6));
        assertEquals("-0.666667", quotient(-2, 0, 3, 0, 6));
        assertEquals("0.333333", quotient(1, 0, 3, 0, 6));
    }

    @Test
    void divisionByZeroIsEmpty()
    {
        assertFalse(arithmetic.divide(5, 0, 0, 0, 6));
        assertFalse(arithmetic.divide(0, 0, 0, 3, 6));
    }

    @Test
    void quotientsThatDoNotFitAreEmpty()
    {
        assertFalse(arithmetic.divide(Long.MAX_VALUE, 0, 1, 0, 6), "a dividend times 10^6 is no long");
        assertFalse(arithmetic.divide(Long.MIN_VALUE, 0, -1, 0, 0), "2^63 is no long");
        assertTrue(arithmetic.divide(Long.MIN_VALUE, 0, 1, 0, 0), "-2^63 is");
        assertEquals(Long.MIN_VALUE, arithmetic.value());
        assertFalse(arithmetic.divide(Long.MAX_VALUE, 18, 1, 18, 18), "36 digits of scaling, a quotient over 2^64");
        assertTrue(arithmetic.divide(Long.MAX_VALUE, 18, Long.MAX_VALUE, 18, 18), "36 digits of scaling, a quotient of 1");
        assertEquals(1_000_000_000_000_000_000L, arithmetic.value());
    }

    @Test
    void addsAndSubtractsAtTheLargerScale()
    {
        assertTrue(arithmetic.add(150, 2, 3, 0));
        assertEquals(450, arithmetic.value(), "1.50 + 3 = 4.50");
        assertTrue(arithmetic.subtract(150, 2, 3, 0));
        assertEquals(-150, arithmetic.value(), "1.50 - 3 = -1.50");
        assertTrue(arithmetic.subtract(100_000_000_000_000_000L, 0, 9_000_000_000_000_000_000L, 2),
            "an operand rescaled past a long, the difference within one");
        assertEquals(1_000_000_000_000_000_000L, arithmetic.value(), "(10^17 - 9 10^16) at scale 2");
        assertFalse(arithmetic.add(Long.MAX_VALUE, 0, 1, 0));
        assertFalse(arithmetic.subtract(Long.MIN_VALUE, 0, 1, 0));
        assertTrue(arithmetic.subtract(-1, 0, Long.MAX_VALUE, 0));
        assertEquals(Long.MIN_VALUE, arithmetic.value());
        assertFalse(arithmetic.subtract(0, 0, Long.MIN_VALUE, 0), "2^63 is no long");
    }

    @Test
    void multipliesExactly()
    {
        assertTrue(arithmetic.multiply(-150, 3));
        assertEquals(-450, arithmetic.value());
        assertFalse(arithmetic.multiply(Long.MAX_VALUE, 2));
        assertFalse(arithmetic.multiply(Long.MIN_VALUE, -1));
        assertTrue(arithmetic.multiply(Long.MIN_VALUE, 1));
        assertTrue(arithmetic.multiply(1L << 31, -(1L << 32)));
        assertEquals(Long.MIN_VALUE, arithmetic.value());
    }

    @Test
    void negates()
    {
        assertTrue(arithmetic.negate(Long.MAX_VALUE));
        assertEquals(-Long.MAX_VALUE, arithmetic.value());
        assertFalse(arithmetic.negate(Long.MIN_VALUE));
    }

    @Test
    void agreesWithBigDecimalOnRandomOperands()
    {
        final SplittableRandom random = new SplittableRandom(33);
        for (int i = 0; i < 200_000; i++)
        {
            final long a = operand(random);
            final long b = operand(random);
            final int sa = random.nextInt(19);
            final int sb = random.nextInt(19);
            final BigDecimal x = BigDecimal.valueOf(a, sa);
            final BigDecimal y = BigDecimal.valueOf(b, sb);
            final int sum = Math.max(sa, sb);
            assertFits(x.add(y).setScale(sum), arithmetic.add(a, sa, b, sb), a + "@" + sa + " + " + b + "@" + sb);
            assertFits(x.subtract(y).setScale(sum), arithmetic.subtract(a, sa, b, sb), a + "@" + sa + " - " + b + "@" + sb);
            assertFits(x.multiply(y), arithmetic.multiply(a, b), a + " * " + b);
            final int scale = Math.max(6, sum);
            final String division = a + "@" + sa + " / " + b + "@" + sb + " at " + scale;
            if (b == 0)
            {
                assertFalse(arithmetic.divide(a, sa, b, sb, scale), division);
            }
            else
            {
                assertFits(x.divide(y, scale, RoundingMode.HALF_EVEN), arithmetic.divide(a, sa, b, sb, scale), division);
            }
        }
    }

    /** Sizes from 0 to the extremes, signs both ways, so both fitting and overflowing results come up. */
    private static long operand(final SplittableRandom random)
    {
        return switch (random.nextInt(6))
        {
            case 0 -> random.nextInt(-3, 4);
            case 1 -> random.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE - random.nextInt(3);
            default -> random.nextLong() >> random.nextInt(64);
        };
    }

    private void assertFits(final BigDecimal exact, final boolean fits, final String what)
    {
        final BigInteger unscaled = exact.unscaledValue();
        final boolean inRange = unscaled.bitLength() < Long.SIZE;
        assertEquals(inRange, fits, what + " = " + exact);
        if (inRange)
        {
            assertEquals(unscaled.longValue(), arithmetic.value(), what + " = " + exact);
        }
    }

    private String quotient(final long a, final int sa, final long b, final int sb, final int scale)
    {
        assertTrue(arithmetic.divide(a, sa, b, sb, scale), a + " / " + b);
        return BigDecimal.valueOf(arithmetic.value(), scale).toPlainString();
    }
}
