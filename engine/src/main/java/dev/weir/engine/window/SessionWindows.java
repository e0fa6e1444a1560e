package dev.weir.engine.window;

import java.time.Duration;

import dev.weir.engine.time.DurationMillis;
import dev.weir.engine.time.DurationText;

/**
 * Session windows: each event opens {@code [t, t + gap)}; windows of one key that overlap or touch
 * ({@code a.start <= b.end && a.end >= b.start}) merge into {@code [min start, max end)}.
 * Immutable and thread-safe.
 */
public final class SessionWindows implements WindowSpec
{
    private final long gap;

    private SessionWindows(final long gap)
    {
        if (gap <= 0)
        {
            throw new IllegalArgumentException("session gap must be > 0 ms: " + gap);
        }
        if (gap > MAX_DURATION)
        {
            throw new IllegalArgumentException("session gap must be <= " + MAX_DURATION + " ms: " + gap);
        }
        this.gap = gap;
    }

    /**
     * @param gap the inactivity gap that closes a session, &gt; 0, whole milliseconds.
     * @return session windows.
     * @throws IllegalArgumentException if the gap is not a positive whole number of milliseconds.
     */
    public static SessionWindows withGap(final Duration gap)
    {
        return new SessionWindows(DurationMillis.of("session gap", gap));
    }

    /**
     * @param gapMs the inactivity gap that closes a session, ms, &gt; 0.
     * @return session windows.
     * @deprecated a bare number of milliseconds is easy to misread: use {@link #withGap(Duration)}.
     */
    @Deprecated
    public static SessionWindows withGap(final long gapMs)
    {
        return new SessionWindows(gapMs);
    }

    /**
     * @return the gap, ms.
     */
    public long gap()
    {
        return gap;
    }

    @Override
    public String describe()
    {
        return "session:" + gap;
    }

    @Override
    public String text()
    {
        return "session:" + DurationText.format(gap);
    }

    @Override
    public String toString()
    {
        return describe();
    }
}
