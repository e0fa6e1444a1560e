package dev.weir.cli;

import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.engine.window.WindowSpec;
import picocli.CommandLine;

/**
 * Window specs on the command line: {@code tumbling:SIZE}, {@code sliding:SIZE/SLIDE},
 * {@code session:GAP}, each duration as {@link Durations} reads it and greater than zero.
 * Stateless and thread-safe.
 */
public final class WindowSpecs implements CommandLine.ITypeConverter<WindowSpec>
{
    /**
     * @param text the spec.
     * @return the window spec.
     * @throws IllegalArgumentException if the text is not a valid spec.
     */
    public static WindowSpec parse(final String text)
    {
        final int colon = text.indexOf(':');
        if (colon < 0)
        {
            throw new IllegalArgumentException(
                "'" + text + "' is not a window spec (use tumbling:SIZE, sliding:SIZE/SLIDE or session:GAP, e.g. tumbling:10s)");
        }
        final String kind = text.substring(0, colon);
        final String args = text.substring(colon + 1);
        switch (kind)
        {
            case "tumbling":
                return TumblingWindows.of(positive(args, "tumbling window size"));
            case "sliding":
            {
                final int slash = args.indexOf('/');
                if (slash < 0)
                {
                    throw new IllegalArgumentException("'" + text + "': a sliding window needs SIZE/SLIDE, e.g. sliding:10s/2s");
                }
                return SlidingWindows.of(
                    positive(args.substring(0, slash), "sliding window size"),
                    positive(args.substring(slash + 1), "sliding window slide"));
            }
            case "session":
                return SessionWindows.withGap(positive(args, "session gap"));
            default:
                throw new IllegalArgumentException("'" + kind + "' is not a window kind (use tumbling, sliding or session)");
        }
    }

    private static long positive(final String text, final String what)
    {
        if (text.startsWith("-"))
        {
            throw new IllegalArgumentException("the " + what + " must be greater than zero: '" + text + "'");
        }
        final long millis = Durations.parseMillis(text);
        if (millis <= 0)
        {
            throw new IllegalArgumentException("the " + what + " must be greater than zero: '" + text + "'");
        }
        return millis;
    }

    @Override
    public WindowSpec convert(final String value)
    {
        try
        {
            return parse(value);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new CommandLine.TypeConversionException(ex.getMessage());
        }
    }
}
