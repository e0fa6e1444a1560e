package dev.weir.csv;

/**
 * Reads a number field of a CSV line from its bytes when it is in a plain form, one that
 * {@link Long#parseLong(CharSequence, int, int, int)} and {@link dev.weir.journal.schema.FieldParser} read as the
 * same value: an optional {@code -} (where allowed), then 1 to {@value #MAX_DIGITS} ASCII digits (so it
 * cannot overflow), and for a decimal an optional {@code .} followed by 1 to scale digits, with at most
 * {@value #MAX_DIGITS} digits once scaled. Anything else (a {@code +}, spaces, more digits, quotes) is
 * not plain, which says nothing of whether it is valid. An event time may also be an {@link IsoInstant}
 * ({@link #time}). Allocates nothing. Not thread-safe.
 */
final class PlainNumber
{
    /** The most digits of a plain number: 10^18 - 1 fits a long with room. */
    static final int MAX_DIGITS = 18;

    private static final long[] POWERS = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000,
        1_000_000_000, 10_000_000_000L, 100_000_000_000L, 1_000_000_000_000L, 10_000_000_000_000L, 100_000_000_000_000L,
        1_000_000_000_000_000L, 10_000_000_000_000_000L, 100_000_000_000_000_000L, 1_000_000_000_000_000_000L};

    private final IsoInstant instant = new IsoInstant();
    private long value;

    /**
     * Read an integer from {@code from} up to the first byte that is not a digit.
     *
     * @param bytes  the line.
     * @param from   the field's first byte.
     * @param end    the line's end.
     * @param signed whether a leading {@code -} is plain.
     * @return the offset after its last digit, or -1 if it is not plain (then nothing is read).
     */
    int integer(final byte[] bytes, final int from, final int end, final boolean signed)
    {
        int i = from;
        final boolean negative = signed && i < end && bytes[i] == '-';
        if (negative)
        {
            i++;
        }
        final int digits = i;
        long acc = 0;
        while (i < end)
        {
            final int d = bytes[i] - '0';
            if (d < 0 || d > 9)
            {
                break;
            }
            acc = acc * 10 + d;
            i++;
        }
        final int n = i - digits;
        if (n == 0 || n > MAX_DIGITS)
        {
            return -1;
        }
        value = negative ? -acc : acc;
        return i;
    }

    /**
     * Read an event time: an unsigned integer of epoch milliseconds, or an {@link IsoInstant} not before 1970.
     *
     * @param bytes the line.
     * @param from  the field's first byte.
     * @param end   the line's end.
     * @return the offset after it, or -1 if it is not plain.
     */
    int time(final byte[] bytes, final int from, final int end)
    {
        final int i = integer(bytes, from, end, false);
        if (i < 0 || i == end || bytes[i] != '-')
        {
            return i;
        }
        final int after = instant.read(bytes, from, end);
        if (after < 0 || instant.millis() < 0)
        {
            return -1;
        }
        value = instant.millis();
        return after;
    }

    /**
     * Read a decimal of a scale as its unscaled long, from {@code from} up to the first byte that is
     * neither a digit nor its point.
     *
     * @param bytes the line.
     * @param from  the field's first byte.
     * @param end   the line's end.
     * @param scale the decimal's scale, &gt;= 0.
     * @return the offset after its last digit, or -1 if it is not plain.
     */
    int decimal(final byte[] bytes, final int from, final int end, final int scale)
    {
        int i = integer(bytes, from, end, true); // the whole part
        if (i < 0)
        {
            return -1;
        }
        final boolean negative = bytes[from] == '-';
        final int whole = i - from - (negative ? 1 : 0);
        long acc = negative ? -value : value; // "-0.5": the sign is the text's, not the whole part's
        int fraction = 0;
        if (i < end && bytes[i] == '.')
        {
            i++;
            while (i < end && fraction <= scale)
            {
                final int d = bytes[i] - '0';
                if (d < 0 || d > 9)
                {
                    break;
                }
                acc = acc * 10 + d;
                fraction++;
                i++;
            }
            if (fraction == 0 || fraction > scale)
            {
                return -1;
            }
        }
        if (whole + scale > MAX_DIGITS)
        {
            return -1;
        }
        acc *= POWERS[scale - fraction];
        value = negative ? -acc : acc;
        return i;
    }

    /** @return the value of the last number read (a decimal's unscaled long). */
    long value()
    {
        return value;
    }
}
