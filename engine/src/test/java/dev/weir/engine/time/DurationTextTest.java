package dev.weir.engine.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * Durations as text: an integer with unit ms, s, m, h or d (a bare integer only for 0), one message for each kind
 * of refusal, quoting the text, and the text a duration is written back as.
 */
class DurationTextTest
{
    @Test
    void readsEachUnitAndABareZero()
    {
        assertEquals(0, DurationText.parseMillis("0"));
        assertEquals(0, DurationText.parseMillis("000"));
        assertEquals(250, DurationText.parseMillis("250ms"));
        assertEquals(30_000, DurationText.parseMillis("30s"));
        assertEquals(300_000, DurationText.parseMillis("5m"));
        assertEquals(3_600_000, DurationText.parseMillis("1h"));
        assertEquals(172_800_000, DurationText.parseMillis("2d"));
        assertEquals(0, DurationText.parseMillis("0s"));
        assertEquals(10_000, DurationText.parseMillis(" 10s "), "spaces around the text are ignored");
    }

    @Test
    void refusesABareNumberOtherThanZeroNamingTheFix()
    {
        assertRefused("'10': a duration needs a unit: write 10ms or 10s (units: ms, s, m, h, d)", "10");
        assertRefused("' 5000 ': a duration needs a unit: write 5000ms or 5000s (units: ms, s, m, h, d)", " 5000 ");
        final UnitlessDurationException ex = assertThrows(UnitlessDurationException.class, () -> DurationText.parseMillis("250"));
        assertEquals("a duration needs a unit: write 250ms or 250s (units: ms, s, m, h, d)", ex.reason());
    }

    @Test
    void writesADurationInItsLargestWholeUnitThatReadsBack()
    {
        assertEquals("0", DurationText.format(0));
        assertEquals("250ms", DurationText.format(250));
        assertEquals("1500ms", DurationText.format(1_500));
        assertEquals("4s", DurationText.format(4_000));
        assertEquals("90s", DurationText.format(90_000));
        assertEquals("5m", DurationText.format(300_000));
        assertEquals("2h", DurationText.format(7_200_000));
        assertEquals("7d", DurationText.format(604_800_000));
        for (final long millis : new long[] {0, 1, 999, 1_000, 61_000, 3_600_000, 86_400_001, Long.MAX_VALUE})
        {
            assertEquals(millis, DurationText.parseMillis(DurationText.format(millis)));
        }
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
        assertEquals(Long.MAX_VALUE, DurationText.parseMillis("9223372036854775807ms"));
    }

    private static void assertRefused(final String message, final String text)
    {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> DurationText.parseMillis(text)).getMessage());
    }
}
