package dev.weir.engine.window;

import java.time.Duration;

import dev.weir.engine.time.DurationMillis;
import dev.weir.engine.time.DurationText;

/**
 * Tumbling windows: {@code [s, s + size)} with {@code s = t - (t mod size)}; every event lies in exactly
 * one window. Immutable and thread-safe.
 */
public final class TumblingWindows extends AlignedWindows
{
    private TumblingWindows(final long size)
    {
        super(size, size);
    }

    /**
     * @param size the window length, &gt; 0, whole milliseconds.
     * @return tumbling windows of that size.
     * @throws IllegalArgumentException if the size is not a positive whole number of milliseconds.
     */
    public static TumblingWindows of(final Duration size)
    {
        return new TumblingWindows(DurationMillis.of("window size", size));
    }

    /**
     * @param sizeMs the window length, ms, &gt; 0.
     * @return tumbling windows of that size.
     * @deprecated a bare number of milliseconds is easy to misread: use {@link #of(Duration)}.
     */
    @Deprecated
    public static TumblingWindows of(final long sizeMs)
    {
        return new TumblingWindows(sizeMs);
    }

    @Override
    public String describe()
    {
        return "tumbling:" + size();
    }

    @Override
    public String text()
    {
        return "tumbling:" + DurationText.format(size());
    }

    @Override
    public String toString()
    {
        return describe();
    }
}
