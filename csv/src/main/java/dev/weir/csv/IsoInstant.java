package dev.weir.csv;

/**
 * Reads an event time written as an ISO-8601 instant of one fixed shape, {@code yyyy-MM-ddTHH:mm:ss}, an optional
 * fraction of 1 to 9 digits after a {@code .}, then {@code Z} or an offset {@code +HH:mm} or {@code -HH:mm} of at
 * most 18:00 (as {@code java.time.ZoneOffset} has it), into epoch milliseconds. The year has exactly four digits
 * (no sign), the date must exist (29 February only in a leap year), hours run to 23, minutes and seconds to 59;
 * {@code T} and {@code Z} are upper case. A fraction finer than a millisecond is truncated (towards the past), as
 * Flink truncates. Allocates nothing. Not thread-safe: holds the last value read.
 */
final class IsoInstant
{
    /** The most characters of an instant of this shape: a fraction of 9 digits and an offset. */
    static final int MAX_LENGTH = 35;

    private final byte[] ascii = new byte[MAX_LENGTH];
    private long millis;

    /**
     * Read an instant that starts at {@code from} and ends at the first comma or at {@code end}.
     *
     * @param bytes the line.
     * @param from  the field's first byte.
     * @param end   the line's end.
     * @return the offset after the instant, or -1 if the field does not start with one of this shape.
     */
    int read(final byte[] bytes, final int from, final int end)
    {
        if (end - from < 20
            || !digits(bytes, from, 4) || bytes[from + 4] != '-' || !digits(bytes, from + 5, 2) || bytes[from + 7] != '-'
            || !digits(bytes, from + 8, 2) || bytes[from + 10] != 'T' || !digits(bytes, from + 11, 2) || bytes[from + 13] != ':'
            || !digits(bytes, from + 14, 2) || bytes[from + 16] != ':' || !digits(bytes, from + 17, 2))
        {
            return -1;
        }
        final int year = number(bytes, from, 4);
        final int month = number(bytes, from + 5, 2);
        final int day = number(bytes, from + 8, 2);
        final int hour = number(bytes, from + 11, 2);
        final int minute = number(bytes, from + 14, 2);
        final int second = number(bytes, from + 17, 2);
        if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 59)
        {
            return -1;
        }
        int i = from + 19;
        int fraction = 0;
        if (bytes[i] == '.')
        {
            final int first = ++i;
            while (i < end && i - first < 9 && bytes[i] >= '0' && bytes[i] <= '9')
            {
                if (i - first < 3)
                {
                    fraction = fraction * 10 + bytes[i] - '0';
                }
                i++;
            }
            final int n = i - first;
            if (n == 0)
            {
                return -1;
            }
            for (int k = n; k < 3; k++)
            {
                fraction *= 10;
            }
        }
        if (i == end)
        {
            return -1;
        }
        int offsetSeconds = 0;
        if (bytes[i] == 'Z')
        {
            i++;
        }
        else if (bytes[i] == '+' || bytes[i] == '-')
        {
            if (end - i < 6 || !digits(bytes, i + 1, 2) || bytes[i + 3] != ':' || !digits(bytes, i + 4, 2))
            {
                return -1;
            }
            final int hours = number(bytes, i + 1, 2);
            final int minutes = number(bytes, i + 4, 2);
            if (minutes > 59 || hours * 60 + minutes > 18 * 60)
            {
                return -1;
            }
            offsetSeconds = (bytes[i] == '-' ? -1 : 1) * (hours * 3_600 + minutes * 60);
            i += 6;
        }
        else
        {
            return -1;
        }
        final long seconds = epochDay(year, month, day) * 86_400L + hour * 3_600L + minute * 60L + second - offsetSeconds;
        millis = seconds * 1_000L + fraction;
        return i;
    }

    /**
     * Read a whole field of text as an instant.
     *
     * @param text  holds the field.
     * @param start the field's first character.
     * @param end   one past its last.
     * @return true if the whole field is an instant of this shape, then held as {@link #millis()}.
     */
    boolean read(final CharSequence text, final int start, final int end)
    {
        final int n = end - start;
        if (n > MAX_LENGTH)
        {
            return false;
        }
        for (int i = 0; i < n; i++)
        {
            final char c = text.charAt(start + i);
            if (c > 0x7F)
            {
                return false;
            }
            ascii[i] = (byte)c;
        }
        return read(ascii, 0, n) == n;
    }

    /** @return the instant last read, in milliseconds since 1970-01-01T00:00:00Z (negative before). */
    long millis()
    {
        return millis;
    }

    private static boolean digits(final byte[] bytes, final int from, final int n)
    {
        for (int i = from; i < from + n; i++)
        {
            if (bytes[i] < '0' || bytes[i] > '9')
            {
                return false;
            }
        }
        return true;
    }

    private static int number(final byte[] bytes, final int from, final int n)
    {
        int value = 0;
        for (int i = from; i < from + n; i++)
        {
            value = value * 10 + bytes[i] - '0';
        }
        return value;
    }

    private static int daysIn(final int year, final int month)
    {
        return switch (month)
        {
            case 2 -> year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's days_from_civil). */
    private static long epochDay(final int year, final int month, final int day)
    {
        final int y = month <= 2 ? year - 1 : year;
        final int era = (y >= 0 ? y : y - 399) / 400;
        final int yearOfEra = y - era * 400;
        final int dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
        final int dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        return era * 146_097L + dayOfEra - 719_468L;
    }
}
