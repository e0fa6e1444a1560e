package dev.weir.cli;

import dev.weir.engine.time.DurationText;
import dev.weir.engine.time.UnitlessDurationException;
import picocli.CommandLine;

/**
 * Durations on the command line, as {@link DurationText} reads them ({@code 10s}, {@code 250ms}, {@code 0}; a bare
 * number other than 0 is refused). Stateless and thread-safe.
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
        catch (final UnitlessDurationException ex)
        {
            throw ex; // picocli keeps it as the cause: WeirCommand names the flag in its message
        }
        catch (final IllegalArgumentException ex)
        {
            throw new CommandLine.TypeConversionException(ex.getMessage());
        }
    }
}
