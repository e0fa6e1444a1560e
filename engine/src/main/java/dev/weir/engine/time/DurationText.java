package dev.weir.engine.time;

/**
 * Durations as text, the way {@code weir}'s flags and a service's settings write them: a non-negative integer
 * with a unit {@code ms}, {@code s}, {@code m}, {@code h} or {@code d} ({@code 250ms}, {@code 10s},
 * {@code 5m}, {@code 1h}, {@code 2d}). A bare integer is refused ({@link UnitlessDurationException}), except
 * {@code 0}, which needs none; spaces around the text are ignored. {@link #format(long)} writes a duration back
 * in its largest whole unit. Stateless and thread-safe.
 */
public final class DurationText
{
    private DurationText()
    {
    }

    /**
     * @param text e.g. {@code 10s}, {@code 250ms}, {@code 0}.
     * @return the duration in milliseconds, &gt;= 0.
     * @throws UnitlessDurationException if the text is a bare integer other than 0.
     * @throws IllegalArgumentException  if the text is not a duration, has an unknown unit, or does not fit a long
     *                                   in milliseconds; the message quotes the text and says which.
     */
    public static long parseMillis(final String text)
    {
        final String t = text.trim();
        int digits = 0;
        while (digits < t.length() && Character.isDigit(t.charAt(digits)))
        {
            digits++;
        }
        if (digits == 0)
        {
            throw new IllegalArgumentException("'" + text + "' is not a duration (an integer with unit ms, s, m, h or d, e.g. 10s)");
        }
        final long amount;
        try
        {
            amount = Long.parseLong(t.substring(0, digits));
        }
        catch (final NumberFormatException ex)
        {
            throw tooLarge(text);
        }
        final String unit = t.substring(digits);
        if (unit.isEmpty() && amount != 0)
        {
            throw new UnitlessDurationException(text, t);
        }
        final long factor = switch (unit)
        {
            case "", "ms" -> 1;
            case "s" -> 1_000;
            case "m" -> 60_000;
            case "h" -> 3_600_000;
            case "d" -> 86_400_000;
            default -> throw new IllegalArgumentException(
                "'" + text + "' is not a duration: unknown unit '" + unit.trim() + "' (use ms, s, m, h or d, e.g. 10s)");
        };
        try
        {
            return Math.multiplyExact(amount, factor);
        }
        catch (final ArithmeticException ex)
        {
            throw tooLarge(text);
        }
    }

    /**
     * Writes a duration in the largest unit that divides it exactly, as {@link #parseMillis} reads it back:
     * {@code 4s}, {@code 1500ms}, {@code 2h}, {@code 0}.
     *
     * @param millis a duration in milliseconds, &gt;= 0.
     * @return the text.
     */
    public static String format(final long millis)
    {
        if (millis == 0)
        {
            return "0";
        }
        if (millis % 86_400_000 == 0)
        {
            return millis / 86_400_000 + "d";
        }
        if (millis % 3_600_000 == 0)
        {
            return millis / 3_600_000 + "h";
        }
        if (millis % 60_000 == 0)
        {
            return millis / 60_000 + "m";
        }
        return millis % 1_000 == 0 ? millis / 1_000 + "s" : millis + "ms";
    }

    private static IllegalArgumentException tooLarge(final String text)
    {
        return new IllegalArgumentException("'" + text + "' is not a duration: too large");
    }
}
