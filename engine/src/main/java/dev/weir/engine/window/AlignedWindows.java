package dev.weir.engine.window;

/**
 * Windows of a fixed {@link #size()} starting at every multiple of {@link #slide()}: an event at time
 * {@code t} lies in every {@code [s, s + size)} with {@code s} a multiple of {@code slide} and
 * {@code s <= t < s + size}, at most {@code ceil(size / slide)} windows, fewer (or none) when the slide
 * exceeds the size. Starts may be negative near epoch 0.
 * <p>
 * Assignment is arithmetic on the event time and allocates nothing. Immutable and thread-safe.
 */
public abstract sealed class AlignedWindows implements WindowSpec permits TumblingWindows, SlidingWindows
{
    private final long size;
    private final long slide;

    AlignedWindows(final long size, final long slide)
    {
        if (size <= 0)
        {
            throw new IllegalArgumentException("window size must be > 0 ms: " + size);
        }
        if (slide <= 0)
        {
            throw new IllegalArgumentException("window slide must be > 0 ms: " + slide);
        }
        if (size > MAX_DURATION || slide > MAX_DURATION)
        {
            throw new IllegalArgumentException("window size and slide must be <= " + MAX_DURATION + " ms");
        }
        this.size = size;
        this.slide = slide;
    }

    /**
     * @return the length of every window, ms.
     */
    public final long size()
    {
        return size;
    }

    /**
     * @return the distance between consecutive window starts, ms.
     */
    public final long slide()
    {
        return slide;
    }

    /**
     * @return how much of each slide no window covers, ms: {@code slide - size} when the slide exceeds the size
     *         (events there fall in no window, and are counted as such), else 0.
     */
    public final long uncoveredPerSlide()
    {
        return Math.max(0, slide - size);
    }

    /**
     * @param eventTime an event time, ms.
     * @return the greatest window start {@code <= eventTime} (the event may still lie outside that
     *         window when the slide exceeds the size).
     */
    public final long lastStart(final long eventTime)
    {
        return Math.floorDiv(eventTime, slide) * slide;
    }

    /**
     * @param eventTime an event time, ms.
     * @return the smallest window start whose window contains {@code eventTime}; greater than
     *         {@link #lastStart(long)} when the event lies in no window.
     */
    public final long firstStart(final long eventTime)
    {
        // smallest multiple of slide that is > eventTime - size
        final long bound = eventTime - size;
        return Math.floorDiv(bound, slide) * slide + slide;
    }

    /**
     * @return the most windows one event can lie in: {@code ceil(size / slide)}.
     */
    public final int maxWindowsPerEvent()
    {
        return (int)Math.min(Integer.MAX_VALUE, (size + slide - 1) / slide);
    }
}
