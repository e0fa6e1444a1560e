package dev.weir.cli;

import dev.weir.journal.JournalRollCycle;
import picocli.CommandLine;

/**
 * {@code --roll-cycle} on the command line: {@code minutely}, {@code hourly} or {@code daily}, the
 * {@link JournalRollCycle} of a journal the command creates. Stateless and thread-safe.
 */
public final class RollCycles implements CommandLine.ITypeConverter<JournalRollCycle>
{
    /** The option's description, the same on every command that creates a journal. */
    static final String DESCRIPTION = "how long each file of a journal it creates covers: minutely (at most 67,108,864 events a minute, "
        + "about 1.1 M/s sustained), hourly (4,294,967,295 an hour) or daily (the default); fixed when the journal is created, "
        + "an existing journal with another is refused; retention deletes whole files";

    @Override
    public JournalRollCycle convert(final String value)
    {
        try
        {
            return JournalRollCycle.parse(value == null ? null : value.toLowerCase(java.util.Locale.ROOT)); // as enum options are
        }
        catch (final IllegalArgumentException ex)
        {
            throw new CommandLine.TypeConversionException(ex.getMessage());
        }
    }
}
