package dev.weir.engine.expr;

/**
 * Whether an operation of one compiled expression left the 64-bit range (wrapped) since the flag was
 * last cleared: the nodes of the expression share one flag and raise it without a branch or an exception,
 * by OR-ing in a word that is not 0 exactly when their operation wrapped. The root clears it before it
 * evaluates ({@link CheckedValue}); the parser reads it after folding constants.
 * <p>
 * Not thread-safe: it belongs to the one thread that evaluates its expression.
 */
final class WrapFlag
{
    /** Not 0 once an operation wrapped. */
    long wrapped;

    /** @return {@code a + b}, wrapping; raises the flag if it wrapped. */
    long add(final long a, final long b)
    {
        final long r = a + b;
        wrapped |= ((a ^ r) & (b ^ r)) >>> 63; // both operands' sign differs from the result's
        return r;
    }

    /** @return {@code a - b}, wrapping; raises the flag if it wrapped. */
    long subtract(final long a, final long b)
    {
        final long r = a - b;
        wrapped |= ((a ^ b) & (a ^ r)) >>> 63; // operands of different signs, and the result's sign is not a's
        return r;
    }

    /** @return {@code a * b}, wrapping; raises the flag if it wrapped. */
    long multiply(final long a, final long b)
    {
        final long r = a * b;
        wrapped |= Math.multiplyHigh(a, b) ^ (r >> 63); // the high half of the 128-bit product is not r's sign extension
        return r;
    }

    /** @return {@code -a}, wrapping; raises the flag if it wrapped (only {@code -Long.MIN_VALUE} does). */
    long negate(final long a)
    {
        final long r = -a;
        wrapped |= (a & r) >>> 63; // both negative: a is Long.MIN_VALUE
        return r;
    }
}
