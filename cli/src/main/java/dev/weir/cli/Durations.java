package dev.weir.cli;

import dev.weir.engine.time.DurationText;
import picocli.CommandLine;

/**
 * Durations on the command line, as {@link DurationText} reads them ({@code 10s}, {@code 250ms}, a bare integer
 * in milliseconds). Stateless and thread-safe.
 */
public final class Durations implements CommandLine.ITypeConverter<Long>
{
    @Override
    public Long convert(final String value)
    {
        try
        {
            return DurationText.parseMillis(value);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new CommandLine.TypeConversionException(ex.getMessage());
        }
    }
}
