package dev.weir.engine.window;

import dev.weir.engine.time.DurationText;
import dev.weir.engine.time.UnitlessDurationException;

/**
 * How events are grouped into event-time windows, aligned to epoch 0, times in milliseconds.
 * <p>
 * Exactly one of {@link TumblingWindows}, {@link SlidingWindows} and {@link SessionWindows}.
 * Implementations are immutable and thread-safe.
 */
public sealed interface WindowSpec permits AlignedWindows, SessionWindows
{
    /**
     * The longest size, slide, gap, out-of-orderness or allowed lateness accepted: 2^60 ms (about 36
     * million years), so that with event times up to 2^62 ms no window end or lateness bound overflows.
     */
    long MAX_DURATION = 1L << 60;

    /**
     * Reads a spec as {@code weir run --window} takes it: {@code tumbling:SIZE}, {@code sliding:SIZE/SLIDE} or
     * {@code session:GAP}, each duration as {@link DurationText} reads it (with a unit) and greater than zero; what
     * {@link #text()} returns reads back as the same spec.
     *
     * @param text e.g. {@code tumbling:1m}, {@code sliding:10s/2s}, {@code session:30s}.
     * @return the spec.
     * @throws UnitlessDurationException if a duration is a bare number ({@code tumbling:10}); the message quotes
     *                                   the whole text.
     * @throws IllegalArgumentException  if the text is not a spec; the message quotes it and says the forms accepted.
     */
    static WindowSpec parse(final String text)
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
                return TumblingWindows.of(positiveMillis(text, args, "tumbling window size"));
            case "sliding":
            {
                final int slash = args.indexOf('/');
                if (slash < 0)
                {
                    throw new IllegalArgumentException("'" + text + "': a sliding window needs SIZE/SLIDE, e.g. sliding:10s/2s");
                }
                return SlidingWindows.of(
                    positiveMillis(text, args.substring(0, slash), "sliding window size"),
                    positiveMillis(text, args.substring(slash + 1), "sliding window slide"));
            }
            case "session":
                return SessionWindows.withGap(positiveMillis(text, args, "session gap"));
            default:
                throw new IllegalArgumentException("'" + kind + "' is not a window kind (use tumbling, sliding or session)");
        }
    }

    private static long positiveMillis(final String spec, final String text, final String what)
    {
        final long millis;
        try
        {
            millis = text.startsWith("-") ? 0 : DurationText.parseMillis(text);
        }
        catch (final UnitlessDurationException ex)
        {
            throw new UnitlessDurationException(spec, ex.amount());
        }
        if (millis <= 0)
        {
            throw new IllegalArgumentException("the " + what + " must be greater than zero: '" + text + "'");
        }
        return millis;
    }

    /**
     * @return the spec in milliseconds without units, e.g. {@code tumbling:10000}: the form checkpoints store and
     *         a resume compares (a format: it never changes). {@link #parse} refuses it; {@link #text()} is the
     *         form to show a user.
     */
    String describe();

    /**
     * @return the spec as {@link #parse} reads it, each duration in its largest whole unit
     *         ({@link DurationText#format}), e.g. {@code tumbling:10s}, {@code sliding:1m/1500ms}.
     */
    String text();
}
