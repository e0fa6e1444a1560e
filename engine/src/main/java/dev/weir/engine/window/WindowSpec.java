package dev.weir.engine.window;

import dev.weir.engine.time.DurationText;

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
     * {@code session:GAP}, each duration as {@link DurationText} reads it and greater than zero; what
     * {@link #describe()} returns reads back as the same spec.
     *
     * @param text e.g. {@code tumbling:1m}, {@code sliding:10s/2s}, {@code session:30s}.
     * @return the spec.
     * @throws IllegalArgumentException if the text is not a spec; the message quotes it and says the forms accepted.
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
                return TumblingWindows.of(positiveMillis(args, "tumbling window size"));
            case "sliding":
            {
                final int slash = args.indexOf('/');
                if (slash < 0)
                {
                    throw new IllegalArgumentException("'" + text + "': a sliding window needs SIZE/SLIDE, e.g. sliding:10s/2s");
                }
                return SlidingWindows.of(
                    positiveMillis(args.substring(0, slash), "sliding window size"),
                    positiveMillis(args.substring(slash + 1), "sliding window slide"));
            }
            case "session":
                return SessionWindows.withGap(positiveMillis(args, "session gap"));
            default:
                throw new IllegalArgumentException("'" + kind + "' is not a window kind (use tumbling, sliding or session)");
        }
    }

    private static long positiveMillis(final String text, final String what)
    {
        final long millis = text.startsWith("-") ? 0 : DurationText.parseMillis(text);
        if (millis <= 0)
        {
            throw new IllegalArgumentException("the " + what + " must be greater than zero: '" + text + "'");
        }
        return millis;
    }

    /**
     * @return the form {@code weir run --window} accepts for this spec, e.g. {@code tumbling:10000}.
     */
    String describe();
}
