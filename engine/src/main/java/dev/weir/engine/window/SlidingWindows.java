package dev.weir.engine.window;

import java.time.Duration;

import dev.weir.engine.time.DurationMillis;
import dev.weir.engine.time.DurationText;

/**
 * Sliding (hopping) windows: every {@code [s, s + size)} with {@code s} a multiple of {@code slide} and
 * {@code s <= t < s + size}. Immutable and thread-safe.
 */
public final class SlidingWindows extends AlignedWindows
{
    private SlidingWindows(final long size, final long slide)
    {
        super(size, slide);
    }

    /**
     * @param size  the window length, &gt; 0, whole milliseconds.
     * @param slide the distance between window starts, &gt; 0, whole milliseconds (it may exceed the size).
     * @return sliding windows.
     * @throws IllegalArgumentException if either is not a positive whole number of milliseconds.
     */
    public static SlidingWindows of(final Duration size, final Duration slide)
    {
        return new SlidingWindows(DurationMillis.of("window size", size), DurationMillis.of("window slide", slide));
    }

    /**
     * @param sizeMs  the window length, ms, &gt; 0.
     * @param slideMs the distance between window starts, ms, &gt; 0 (it may exceed the size).
     * @return sliding windows.
     * @deprecated bare numbers of milliseconds are easy to misread: use {@link #of(Duration, Duration)}.
     */
    @Deprecated
    public static SlidingWindows of(final long sizeMs, final long slideMs)
    {
        return new SlidingWindows(sizeMs, slideMs);
    }

    @Override
    public String describe()
    {
        return "sliding:" + size() + "/" + slide();
    }

    @Override
    public String text()
    {
        return "sliding:" + DurationText.format(size()) + "/" + DurationText.format(slide());
    }

    @Override
    public String toString()
    {
        return describe();
    }
}
