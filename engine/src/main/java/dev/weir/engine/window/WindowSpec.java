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
     * @return the form {@code weir run --window} accepts for this spec, e.g. {@code tumbling:10000}.
     */
    String describe();
}
