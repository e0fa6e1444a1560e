package dev.weir.engine.time;

/**
 * The rules that decide, against a watermark {@code wm}, whether a window or an event is late, with
 * allowed lateness {@code A}:
 * <ul>
 *   <li>a window is late (gets nothing more, its state may be discarded) when {@code end + A <= wm};</li>
 *   <li>an event all of whose windows are late is skipped when {@code eventTime + A < wm} (strict);</li>
 *   <li>a window fires when {@code end <= wm}.</li>
 * </ul>
 * Sums saturate at {@link Long#MAX_VALUE}, so plus and minus infinity compare as expected.
 * Immutable and thread-safe.
 */
public final class Lateness
{
    private final long allowedLateness;

    /**
     * @param allowedLatenessMs how long after its end a window still accepts events, ms, &gt;= 0.
     */
    public Lateness(final long allowedLatenessMs)
    {
        if (allowedLatenessMs < 0)
        {
            throw new IllegalArgumentException("allowed lateness must be >= 0 ms: " + allowedLatenessMs);
        }
        this.allowedLateness = allowedLatenessMs;
    }

    /**
     * @return the allowed lateness, ms.
     */
    public long allowedLateness()
    {
        return allowedLateness;
    }

    /**
     * @param windowEnd the window's exclusive end.
     * @return the watermark at which the window's state is discarded: {@code end + A}, saturated.
     */
    public long cleanupTime(final long windowEnd)
    {
        return saturatedAdd(windowEnd, allowedLateness);
    }

    /**
     * @param windowEnd the window's exclusive end.
     * @param watermark the current watermark.
     * @return true if the window is late: {@code end + A <= wm}.
     */
    public boolean isWindowLate(final long windowEnd, final long watermark)
    {
        return cleanupTime(windowEnd) <= watermark;
    }

    /**
     * @param eventTime the event's time.
     * @param watermark the watermark left by the events before it.
     * @return true if an event none of whose windows accept it is to be skipped: {@code t + A < wm}.
     */
    public boolean isEventLate(final long eventTime, final long watermark)
    {
        return saturatedAdd(eventTime, allowedLateness) < watermark;
    }

    /**
     * @param a a time.
     * @param b a non-negative duration.
     * @return {@code a + b}, or {@link Long#MAX_VALUE} if that overflows.
     */
    public static long saturatedAdd(final long a, final long b)
    {
        final long sum = a + b;
        return (sum < a) ? Long.MAX_VALUE : sum;
    }
}
