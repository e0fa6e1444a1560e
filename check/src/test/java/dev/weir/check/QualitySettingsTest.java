package dev.weir.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * {@link QualitySettings} reads every setting's form (counts, rates as fractions or percentages, durations, dates,
 * the instant), keeps the defaults for settings not given, and refuses each bad text with a message that names the
 * setting and quotes the text.
 */
class QualitySettingsTest
{
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T08:00:00.750Z"), ZoneOffset.UTC);

    @Test
    void readsEverySetting()
    {
        final QualitySettings settings = QualitySettings.parse(Map.of("min-rows", "5", "max-duplicate-rows", "2", "max-rejected-rate", "0.5%",
            "max-late-rate", "0.02", "max-duplicate-rate", "1%", "max-staleness", "1h", "max-gaps", "3", "from-date", "2026-11-01",
            "to-date", "2026-11-30", "now", "2026-11-30T09:00:00Z"), CLOCK);
        final QualityThresholds limits = settings.thresholds();
        assertEquals(5, limits.minRowsPerPartition());
        assertEquals(2, limits.maxDuplicateRows());
        assertEquals(0.005, limits.maxRejectedRate(), 1e-12);
        assertEquals(0.02, limits.maxLateRate(), 1e-12);
        assertEquals(0.01, limits.maxDuplicateRate(), 1e-12);
        assertEquals(Duration.ofHours(1), limits.maxStaleness());
        assertEquals(3, limits.maxGaps());
        assertEquals(LocalDate.parse("2026-11-01"), limits.fromDate());
        assertEquals(LocalDate.parse("2026-11-30"), limits.toDate());
        assertEquals(Instant.parse("2026-11-30T09:00:00Z"), settings.now());
    }

    @Test
    void settingsNotGivenKeepTheDefaultsAndNowIsTheClocksSecond()
    {
        final QualitySettings settings = QualitySettings.parse(Map.of(), CLOCK);
        assertEquals(QualityThresholds.DEFAULTS, settings.thresholds());
        assertEquals(Instant.parse("2026-11-30T08:00:00Z"), settings.now());
        assertEquals(Instant.ofEpochMilli(1_764_489_600_000L), QualitySettings.parse(Map.of("now", "1764489600000"), CLOCK).now(),
            "epoch milliseconds");
    }

    @Test
    void refusesAnUnknownNameAndListsTheKnownOnesSorted()
    {
        assertRefused("unknown setting 'max-rejected-rat' (known: from-date, max-duplicate-rate, max-duplicate-rows, max-gaps, "
            + "max-late-rate, max-rejected-rate, max-staleness, min-rows, now, to-date)", Map.of("max-rejected-rat", "0.5"));
        assertEquals(QualitySettings.NAMES.stream().sorted().toList(), QualitySettings.NAMES);
        QualitySettings.checkNames(List.of("min-rows", "now"));
    }

    @Test
    void refusesABadCountRateDurationDateOrInstant()
    {
        assertRefused("min-rows must be a whole number >= 0: '-1'", Map.of("min-rows", "-1"));
        assertRefused("max-gaps must be a whole number >= 0: 'none'", Map.of("max-gaps", "none"));
        assertRefused("max-late-rate must be a fraction from 0 to 1, or a percentage like 0.5%: '7'", Map.of("max-late-rate", "7"));
        assertRefused("max-rejected-rate must be a fraction from 0 to 1, or a percentage like 0.5%: '101%'", Map.of("max-rejected-rate", "101%"));
        assertRefused("max-staleness: 'soon' is not a duration (an integer with unit ms, s, m, h or d, e.g. 10s)", Map.of("max-staleness", "soon"));
        assertRefused("from-date must be a date YYYY-MM-DD: 'yesterday'", Map.of("from-date", "yesterday"));
        assertRefused("now must be an ISO-8601 instant (2026-11-30T08:00:00Z) or epoch milliseconds: 'noon'", Map.of("now", "noon"));
    }

    @Test
    void refusesARangeThatEndsBeforeItStarts()
    {
        assertRefused("--to-date 2026-11-01 is before --from-date 2026-11-02", Map.of("from-date", "2026-11-02", "to-date", "2026-11-01"));
    }

    private static void assertRefused(final String message, final Map<String, String> settings)
    {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> QualitySettings.parse(settings, CLOCK)).getMessage());
    }
}
