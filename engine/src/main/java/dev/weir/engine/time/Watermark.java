package dev.weir.engine.time;

/**
 * The event-time watermark: the engine's belief that no more events at or before it are to come,
 * less the out-of-orderness it tolerates.
 * <p>
 * It starts at {@link #MIN} (minus infinity); after each event it becomes
 * {@code max(wm, eventTime - outOfOrderness)}; at the end of a bounded input it becomes {@link #MAX}
 * (plus infinity). It never goes backwards. Not thread-safe: one owner thread.
 */
public final class Watermark
{
    /** Minus infinity: no event seen yet. */
    public static final long MIN = Long.MIN_VALUE;
    /** Plus infinity: the input has ended. */
    public static final long MAX = Long.MAX_VALUE;

    private final long outOfOrderness;
    private long current = MIN;

    /**
     * @param outOfOrdernessMs how far behind the newest event time an event may arrive without being
     *                         late, ms, &gt;= 0.
     */
    public Watermark(final long outOfOrdernessMs)
    {
        if (outOfOrdernessMs < 0)
        {
            throw new IllegalArgumentException("out-of-orderness must be >= 0 ms: " + outOfOrdernessMs);
        }
        this.outOfOrderness = outOfOrdernessMs;
    }

    /**
     * @return the current watermark.
     */
    public long current()
    {
        return current;
    }

    /**
     * Advance after an event.
     *
     * @param eventTime the event's time, ms, &gt;= 0.
     * @return the watermark after the event.
     */
    public long observe(final long eventTime)
    {
        final long candidate = eventTime - outOfOrderness;
        if (candidate > current)
        {
            current = candidate;
        }
        return current;
    }

    /**
     * The input has ended: move to plus infinity.
     *
     * @return {@link #MAX}.
     */
    public long endOfInput()
    {
        current = MAX;
        return current;
    }

    /**
     * Restore a watermark, e.g. from a checkpoint.
     *
     * @param value the watermark to restore.
     */
    public void reset(final long value)
    {
        current = value;
    }

    /**
     * @return the out-of-orderness, ms.
     */
    public long outOfOrderness()
    {
        return outOfOrderness;
    }
}
