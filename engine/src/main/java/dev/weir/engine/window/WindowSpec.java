package dev.weir.engine.window;

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
     * @return the form {@code weir run --window} accepts for this spec, e.g. {@code tumbling:10000}.
     */
    String describe();
}
