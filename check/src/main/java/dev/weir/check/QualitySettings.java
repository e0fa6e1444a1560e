package dev.weir.check;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import dev.weir.engine.time.DurationText;

/**
 * What a {@link QualityReport} is measured with, read from text the way {@code weir check}'s {@code --config} file
 * or a service's properties hold it: the thresholds under the names of {@code weir check}'s flags without
 * {@code --} ({@link #NAMES}), counts as whole numbers, rates as a fraction or a percentage ({@code 0.01},
 * {@code 1%}), the staleness as {@link DurationText} reads it, dates as {@code YYYY-MM-DD}, and {@code now} (the
 * instant freshness is measured against) as ISO-8601 or epoch milliseconds. A setting not given keeps its
 * default ({@link QualityThresholds#DEFAULTS}). Immutable; {@link #parse} is stateless and thread-safe.
 *
 * @param thresholds the limits.
 * @param now        the instant freshness is measured against.
 */
public record QualitySettings(QualityThresholds thresholds, Instant now)
{
    /** Every setting's name, sorted. */
    public static final List<String> NAMES = List.of("from-date", "max-duplicate-rate", "max-duplicate-rows", "max-gaps", "max-late-rate",
        "max-rejected-rate", "max-staleness", "min-rows", "now", "to-date");

    /**
     * @param settings each setting's text by its name; names not in {@link #NAMES} are refused.
     * @param clock    gives {@code now} (to the second) when it is not set.
     * @return the settings.
     * @throws IllegalArgumentException if a name is unknown, a value is not of its setting's form, or the range's
     *                                  {@code to-date} is before its {@code from-date}; the message names the setting
     *                                  and quotes the text.
     */
    public static QualitySettings parse(final Map<String, String> settings, final Clock clock)
    {
        checkNames(settings.keySet());
        QualityThresholds limits = QualityThresholds.DEFAULTS;
        if (settings.get("min-rows") != null)
        {
            limits = limits.withMinRowsPerPartition(count("min-rows", settings.get("min-rows")));
        }
        if (settings.get("max-duplicate-rows") != null)
        {
            limits = limits.withMaxDuplicateRows(count("max-duplicate-rows", settings.get("max-duplicate-rows")));
        }
        if (settings.get("max-rejected-rate") != null)
        {
            limits = limits.withMaxRejectedRate(rate("max-rejected-rate", settings.get("max-rejected-rate")));
        }
        if (settings.get("max-late-rate") != null)
        {
            limits = limits.withMaxLateRate(rate("max-late-rate", settings.get("max-late-rate")));
        }
        if (settings.get("max-duplicate-rate") != null)
        {
            limits = limits.withMaxDuplicateRate(rate("max-duplicate-rate", settings.get("max-duplicate-rate")));
        }
        if (settings.get("max-staleness") != null)
        {
            limits = limits.withMaxStaleness(Duration.ofMillis(duration("max-staleness", settings.get("max-staleness"))));
        }
        if (settings.get("max-gaps") != null)
        {
            limits = limits.withMaxGaps(count("max-gaps", settings.get("max-gaps")));
        }
        limits = limits.withRange(date("from-date", settings.get("from-date")), date("to-date", settings.get("to-date")));
        if (limits.fromDate() != null && limits.toDate() != null && limits.toDate().isBefore(limits.fromDate()))
        {
            throw new IllegalArgumentException("--to-date " + limits.toDate() + " is before --from-date " + limits.fromDate());
        }
        return new QualitySettings(limits, instant(settings.get("now"), clock));
    }

    /**
     * @param names settings' names.
     * @throws IllegalArgumentException naming the first that is not in {@link #NAMES}, and the names known.
     */
    public static void checkNames(final Collection<String> names)
    {
        for (final String name : names)
        {
            if (!NAMES.contains(name))
            {
                throw new IllegalArgumentException("unknown setting '" + name + "' (known: " + String.join(", ", NAMES) + ")");
            }
        }
    }

    private static long count(final String name, final String text)
    {
        try
        {
            final long value = Long.parseLong(text);
            if (value >= 0)
            {
                return value;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // reported below
        }
        throw new IllegalArgumentException(name + " must be a whole number >= 0: '" + text + "'");
    }

    private static double rate(final String name, final String text)
    {
        try
        {
            final boolean percent = text.endsWith("%");
            final double value = Double.parseDouble(percent ? text.substring(0, text.length() - 1) : text) / (percent ? 100 : 1);
            if (value >= 0 && value <= 1)
            {
                return value;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // reported below
        }
        throw new IllegalArgumentException(name + " must be a fraction from 0 to 1, or a percentage like 0.5%: '" + text + "'");
    }

    private static long duration(final String name, final String text)
    {
        try
        {
            return DurationText.parseMillis(text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(name + ": " + ex.getMessage(), ex);
        }
    }

    private static LocalDate date(final String name, final String text)
    {
        if (text == null)
        {
            return null;
        }
        try
        {
            return LocalDate.parse(text);
        }
        catch (final DateTimeParseException ex)
        {
            throw new IllegalArgumentException(name + " must be a date YYYY-MM-DD: '" + text + "'");
        }
    }

    private static Instant instant(final String text, final Clock clock)
    {
        if (text == null)
        {
            return clock.instant().truncatedTo(ChronoUnit.SECONDS);
        }
        try
        {
            return text.chars().allMatch(Character::isDigit) ? Instant.ofEpochMilli(Long.parseLong(text)) : Instant.parse(text);
        }
        catch (final DateTimeParseException | NumberFormatException ex)
        {
            throw new IllegalArgumentException("now must be an ISO-8601 instant (2026-11-30T08:00:00Z) or epoch milliseconds: '" + text + "'");
        }
    }
}
