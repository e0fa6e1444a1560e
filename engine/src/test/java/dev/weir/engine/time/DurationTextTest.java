package dev.weir.engine.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * Durations as text: an integer with unit ms, s, m, h or d (a bare integer in milliseconds), and one message for
 * each kind of refusal, quoting the text.
 */
class DurationTextTest
{
    @Test
    void readsEachUnitAndABareIntegerAsMilliseconds()
    {
        assertEquals(5_000, DurationText.parseMillis("5000"));
        assertEquals(250, DurationText.parseMillis("250ms"));
        assertEquals(30_000, DurationText.parseMillis("30s"));
        assertEquals(300_000, DurationText.parseMillis("5m"));
        assertEquals(3_600_000, DurationText.parseMillis("1h"));
        assertEquals(172_800_000, DurationText.parseMillis("2d"));
        assertEquals(0, DurationText.parseMillis("0s"));
        assertEquals(10_000, DurationText.parseMillis(" 10s "), "spaces around the text are ignored");
    }

    @Test
    void refusesTextWithoutLeadingDigits()
    {
        assertRefused("'soon' is not a duration (an integer with unit ms, s, m, h or d, e.g. 10s)", "soon");
        assertRefused("'-1m' is not a duration (an integer with unit ms, s, m, h or d, e.g. 10s)", "-1m");
        assertRefused("'' is not a duration (an integer with unit ms, s, m, h or d, e.g. 10s)", "");
    }

    @Test
    void refusesAnUnknownUnit()
    {
        assertRefused("'10w' is not a duration: unknown unit 'w' (use ms, s, m, h or d, e.g. 10s)", "10w");
        assertRefused("'10 s' is not a duration: unknown unit 's' (use ms, s, m, h or d, e.g. 10s)", "10 s");
        assertRefused("'1.5s' is not a duration: unknown unit '.5s' (use ms, s, m, h or d, e.g. 10s)", "1.5s");
    }

    @Test
    void refusesWhatDoesNotFitInMilliseconds()
    {
        assertRefused("'99999999999999999999' is not a duration: too large", "99999999999999999999");
        assertRefused("'99999999999999999999w' is not a duration: too large", "99999999999999999999w");
        assertRefused("'9223372036854775807d' is not a duration: too large", "9223372036854775807d");
        assertEquals(Long.MAX_VALUE, DurationText.parseMillis("9223372036854775807"));
    }

    private static void assertRefused(final String message, final String text)
    {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> DurationText.parseMillis(text)).getMessage());
    }
}
