package dev.weir.engine.emit;

/**
 * A decimal's text from its unscaled long and its scale, appended without allocating: {@code 1250} at scale 2
 * is {@code 12.50}, {@code -5} at scale 2 is {@code -0.05}; the text {@code BigDecimal.valueOf(unscaled,
 * scale).toPlainString()} gives.
 * <p>
 * Stateless and thread-safe.
 */
final class DecimalText
{
    private static final long[] POWERS = new long[19];

    static
    {
        POWERS[0] = 1;
        for (int i = 1; i < POWERS.length; i++)
        {
            POWERS[i] = POWERS[i - 1] * 10;
        }
    }

    private DecimalText()
    {
    }

    /**
     * @param to       where to append.
     * @param unscaled the unscaled value.
     * @param scale    0 to 18 fraction digits.
     * @return {@code to}.
     */
    static StringBuilder append(final StringBuilder to, final long unscaled, final int scale)
    {
        if (scale == 0)
        {
            return to.append(unscaled);
        }
        final long power = POWERS[scale];
        long whole = unscaled / power;
        long fraction = unscaled % power;
        if (unscaled < 0)
        {
            to.append('-');
            whole = -whole; // |unscaled / 10^scale| < Long.MAX_VALUE for a scale of 1 or more
            fraction = -fraction;
        }
        to.append(whole).append('.');
        for (int digits = scale - 1; digits > 0 && fraction < POWERS[digits]; digits--)
        {
            to.append('0');
        }
        return to.append(fraction);
    }
}
