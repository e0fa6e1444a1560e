package dev.weir.engine.aggregate;

/**
 * Exact decimal arithmetic on unscaled longs at given scales, for the results of named aggregates: {@code + - * /}
 * and negation through 128-bit intermediates ({@link Math#multiplyHigh}, an unsigned 128-by-64-bit division), a
 * quotient rounded half-even. Each operation returns false when its exact (or rounded) result does not fit a long
 * at its scale, or for a division by zero: the result is then "empty"; otherwise {@link #value()} is the result.
 * <p>
 * Allocates nothing. Not thread-safe: the operands' scratch is its own; one owner thread.
 */
final class ScaledArithmetic
{
    private static final long[] TEN = new long[19];

    static
    {
        TEN[0] = 1;
        for (int i = 1; i < TEN.length; i++)
        {
            TEN[i] = TEN[i - 1] * 10;
        }
    }

    private long value;
    /** A 128-bit intermediate, high and low halves; and a division's remainder. */
    private long high;
    private long low;
    private long remainder;

    /** @return the last successful operation's result, unscaled at its scale. */
    long value()
    {
        return value;
    }

    /** @return {@code a + b} at {@code max(sa, sb)}; false if it does not fit. */
    boolean add(final long a, final int sa, final long b, final int sb)
    {
        return sum(a, sa, b, sb, false);
    }

    /** @return {@code a - b} at {@code max(sa, sb)}; false if it does not fit. */
    boolean subtract(final long a, final int sa, final long b, final int sb)
    {
        return sum(a, sa, b, sb, true);
    }

    /** @return {@code a * b} at the sum of the operands' scales (the caller's); false if it does not fit. */
    boolean multiply(final long a, final long b)
    {
        value = a * b;
        return Math.multiplyHigh(a, b) == value >> 63;
    }

    /** @return {@code -a}; false if it does not fit (only {@code Long.MIN_VALUE}). */
    boolean negate(final long a)
    {
        value = -a;
        return a != Long.MIN_VALUE;
    }

    /**
     * @param scale the quotient's scale: at least {@code sa}, at most {@code sa - sb + 36}.
     * @return {@code a / b} at {@code scale}, rounded half-even; false if {@code b} is 0 or the quotient does not fit.
     */
    boolean divide(final long a, final int sa, final long b, final int sb, final int scale)
    {
        assert scale >= sa && scale - sa + sb <= 36 : "a quotient's scale from its dividend's to 36 digits more than its divisor's";
        if (b == 0)
        {
            return false;
        }
        final boolean negative = (a < 0) != (b < 0);
        final long divisor = b < 0 ? -b : b; // unsigned: Long.MIN_VALUE is 2^63
        high = 0;
        low = a < 0 ? -a : a;
        for (int digits = scale - sa + sb; digits > 0; digits -= 18)
        {
            if (!timesUnsigned(TEN[Math.min(digits, 18)]))
            {
                return false; // a dividend of 2^128 or more over a divisor below 2^64: a quotient over 2^64
            }
        }
        if (Long.compareUnsigned(high, divisor) >= 0)
        {
            return false; // a quotient of 2^64 or more
        }
        long quotient = divideUnsigned(high, low, divisor);
        final long rest = divisor - remainder; // remainder < divisor, so no wrap
        final int half = Long.compareUnsigned(remainder, rest);
        if (half > 0 || half == 0 && (quotient & 1) != 0)
        {
            if (quotient == -1L)
            {
                return false;
            }
            quotient++;
        }
        if (negative)
        {
            value = -quotient;
            return Long.compareUnsigned(quotient, Long.MIN_VALUE) <= 0;
        }
        value = quotient;
        return quotient >= 0;
    }

    /** The 128-bit sum or difference of the operands at their larger scale, then whether it fits a long. */
    private boolean sum(final long a, final int sa, final long b, final int sb, final boolean minus)
    {
        final int scale = Math.max(sa, sb);
        widen(b, scale - sb);
        long bHigh = high;
        long bLow = low;
        if (minus)
        {
            bLow = -bLow;
            bHigh = ~bHigh + (bLow == 0 ? 1 : 0);
        }
        widen(a, scale - sa);
        final long sumLow = low + bLow;
        final long sumHigh = high + bHigh + (Long.compareUnsigned(sumLow, low) < 0 ? 1 : 0);
        value = sumLow;
        return sumHigh == sumLow >> 63;
    }

    /** {@link #high}, {@link #low} := {@code x * 10^digits}, signed (digits at most 18: never over 2^124). */
    private void widen(final long x, final int digits)
    {
        final long factor = TEN[digits];
        high = Math.multiplyHigh(x, factor);
        low = x * factor;
    }

    /** {@link #high}, {@link #low} := their unsigned product with {@code factor}; false if it reaches 2^128. */
    private boolean timesUnsigned(final long factor)
    {
        final long carry = unsignedMultiplyHigh(low, factor);
        final long highLow = high * factor;
        if (unsignedMultiplyHigh(high, factor) != 0)
        {
            return false;
        }
        final long newHigh = highLow + carry;
        if (Long.compareUnsigned(newHigh, highLow) < 0)
        {
            return false;
        }
        high = newHigh;
        low = low * factor;
        return true;
    }

    /**
     * The unsigned quotient of {@code dividend} by a positive {@code divisor}, allocating nothing (Java 17's
     * {@link Long#divideUnsigned} goes through {@code BigInteger} for a dividend of 2^63 or more).
     */
    private static long divideUnsigned(final long dividend, final long divisor)
    {
        if (dividend >= 0)
        {
            return dividend / divisor;
        }
        final long quotient = (dividend >>> 1) / divisor << 1;
        return quotient + (Long.compareUnsigned(dividend - quotient * divisor, divisor) >= 0 ? 1 : 0);
    }

    private static long unsignedMultiplyHigh(final long x, final long y)
    {
        return Math.multiplyHigh(x, y) + ((x >> 63) & y) + ((y >> 63) & x);
    }

    /**
     * The unsigned quotient of the 128-bit {@code (u1, u0)} by {@code v}, with {@code u1 < v} (so it fits 64 bits);
     * the remainder goes to {@link #remainder}. Knuth's algorithm D on 32-bit digits (Hacker's Delight, divlu).
     */
    private long divideUnsigned(final long u1, final long u0, final long v)
    {
        final long base = 1L << 32;
        final int shift = Long.numberOfLeadingZeros(v);
        final long divisor = v << shift;
        final long vn1 = divisor >>> 32;
        final long vn0 = divisor & 0xFFFF_FFFFL;
        final long un32 = (u1 << shift) | (shift == 0 ? 0 : u0 >>> (64 - shift));
        final long un10 = u0 << shift;
        final long un1 = un10 >>> 32;
        final long un0 = un10 & 0xFFFF_FFFFL;

        long q1 = divideUnsigned(un32, vn1);
        long rhat = un32 - q1 * vn1;
        while (Long.compareUnsigned(q1, base) >= 0 || Long.compareUnsigned(q1 * vn0, (rhat << 32) + un1) > 0)
        {
            q1--;
            rhat += vn1;
            if (Long.compareUnsigned(rhat, base) >= 0)
            {
                break;
            }
        }
        final long un21 = (un32 << 32) + un1 - q1 * divisor;

        long q0 = divideUnsigned(un21, vn1);
        rhat = un21 - q0 * vn1;
        while (Long.compareUnsigned(q0, base) >= 0 || Long.compareUnsigned(q0 * vn0, (rhat << 32) + un0) > 0)
        {
            q0--;
            rhat += vn1;
            if (Long.compareUnsigned(rhat, base) >= 0)
            {
                break;
            }
        }
        remainder = ((un21 << 32) + un0 - q0 * divisor) >>> shift;
        return (q1 << 32) + q0;
    }
}
