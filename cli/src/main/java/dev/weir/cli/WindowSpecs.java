package dev.weir.cli;

import dev.weir.engine.window.WindowSpec;
import dev.weir.engine.time.UnitlessDurationException;
import picocli.CommandLine;

/**
 * Window specs on the command line, as {@link WindowSpec#parse} reads them ({@code tumbling:SIZE},
 * {@code sliding:SIZE/SLIDE}, {@code session:GAP}). Stateless and thread-safe.
 */
public final class WindowSpecs implements CommandLine.ITypeConverter<WindowSpec>
{
    @Override
    public WindowSpec convert(final String value)
    {
        try
        {
            return WindowSpec.parse(value);
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
