package dev.weir.files;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * Writes an instant in milliseconds as ISO-8601 UTC text, the text of {@link Instant#toString()} for whole milliseconds:
 * {@code 2026-12-02T09:30:00Z}, with {@code .SSS} only when the milliseconds are not zero ({@code 2026-12-02T09:30:00.250Z}).
 * From year 0000 to 9999 it computes the digits and allocates nothing; outside them (a window end near
 * {@link Long#MAX_VALUE}) it copies the text of {@link Instant#toString()}, which allocates. Stateless and thread-safe.
 */
final class IsoTimes
{
    /** The longest text written: that of {@link Long#MIN_VALUE} or {@link Long#MAX_VALUE} milliseconds. */
    static final int MAX_LENGTH = 30;

    /** 0000-01-01T00:00:00Z. */
    private static final long FIRST = -62_167_219_200_000L;
    /** 9999-12-31T23:59:59.999Z. */
    private static final long LAST = 253_402_300_799_999L;
    private static final long DAY = 86_400_000L;

    private IsoTimes()
    {
    }

    /**
     * @param millis milliseconds since 1970-01-01T00:00:00Z.
     * @param into   where to write, with room for {@value #MAX_LENGTH} bytes from {@code at}.
     * @param at     the offset to write at.
     * @return the offset after the text.
     */
    static int write(final long millis, final byte[] into, final int at)
    {
        if (millis < FIRST || millis > LAST)
        {
            final byte[] text = Instant.ofEpochMilli(millis).toString().getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(text, 0, into, at, text.length);
            return at + text.length;
        }
        final long days = Math.floorDiv(millis, DAY);
        final int ofDay = (int)Math.floorMod(millis, DAY);
        // the civil date of a day since the epoch: H. Hinnant's civil_from_days
        final long z = days + 719_468;
        final long era = Math.floorDiv(z, 146_097);
        final int dayOfEra = (int)(z - era * 146_097);
        final int yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        final int dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        final int shifted = (5 * dayOfYear + 2) / 153;
        final int day = dayOfYear - (153 * shifted + 2) / 5 + 1;
        final int month = shifted < 10 ? shifted + 3 : shifted - 9;
        final int year = (int)(yearOfEra + era * 400) + (month <= 2 ? 1 : 0);
        int i = digits(year, 4, into, at);
        into[i++] = '-';
        i = digits(month, 2, into, i);
        into[i++] = '-';
        i = digits(day, 2, into, i);
        into[i++] = 'T';
        i = digits(ofDay / 3_600_000, 2, into, i);
        into[i++] = ':';
        i = digits(ofDay / 60_000 % 60, 2, into, i);
        into[i++] = ':';
        i = digits(ofDay / 1_000 % 60, 2, into, i);
        if (ofDay % 1_000 != 0)
        {
            into[i++] = '.';
            i = digits(ofDay % 1_000, 3, into, i);
        }
        into[i++] = 'Z';
        return i;
    }

    /**
     * @param row    where to append.
     * @param millis milliseconds since 1970-01-01T00:00:00Z.
     * @return {@code row}, with the text {@link #write} writes: the reference, by {@link Instant#toString()}.
     */
    static StringBuilder append(final StringBuilder row, final long millis)
    {
        return row.append(Instant.ofEpochMilli(millis));
    }

    private static int digits(final int value, final int width, final byte[] into, final int at)
    {
        int v = value;
        for (int i = at + width - 1; i >= at; i--)
        {
            into[i] = (byte)('0' + v % 10);
            v /= 10;
        }
        return at + width;
    }
}
