package dev.weir.cli;

import picocli.CommandLine;

/**
 * Durations on the command line: a non-negative integer with an optional unit {@code ms}, {@code s},
 * {@code m}, {@code h} or {@code d}; a bare integer means milliseconds. Stateless and thread-safe.
 */
public final class Durations implements CommandLine.ITypeConverter<Long>
{
    /**
     * @param text e.g. {@code 10s}, {@code 250ms}, {@code 5000}.
     * @return milliseconds.
     * @throws IllegalArgumentException if the text is not a duration.
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
            throw new IllegalArgumentException("'" + text + "' is not a duration: too large");
        }
        final String unit = t.substring(digits);
        final long factor;
        switch (unit)
        {
            case "":
            case "ms":
                factor = 1;
                break;
            case "s":
                factor = 1_000;
                break;
            case "m":
                factor = 60_000;
                break;
            case "d":
                factor = 86_400_000;
                break;
            case "h":
                factor = 3_600_000;
                break;
            default:
                throw new IllegalArgumentException("'" + text + "' is not a duration: unknown unit '" + unit.trim() + "' (use ms, s, m, h or d, e.g. 10s)");
        }
        try
        {
            return Math.multiplyExact(amount, factor);
        }
        catch (final ArithmeticException ex)
        {
            throw new IllegalArgumentException("'" + text + "' is not a duration: too large");
        }
    }

    @Override
    public Long convert(final String value)
    {
        try
        {
            return parseMillis(value);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new CommandLine.TypeConversionException(ex.getMessage());
        }
    }
}
