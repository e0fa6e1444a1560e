package dev.weir.engine.join;

/**
 * How far back a pipeline's joins must still answer: {@code horizon = maxTime - outOfOrderness - allowedLateness -
 * reach}, where {@code maxTime} is the greatest event or heartbeat time read so far (every event, filtered and
 * unmatched ones included) and {@code reach} the window's size (tumbling, sliding) or the session gap. An event
 * older than the horizon is late in every window but a session stretched back to it, so a table version whose
 * successor is at or before the horizon is dead: a lookup landing on it answers no row ({@link TableVersions}).
 * <p>
 * The horizon depends on the journal alone (the times read, in order), so a replay and a resumed run see the same.
 * Sums saturate: no overflow. Not thread-safe: one owner thread (the pipeline's publisher).
 */
public final class Horizon
{
    private final long behind;
    private long maxTime = Long.MIN_VALUE;

    /**
     * @param outOfOrdernessMs  the watermark's allowed out-of-orderness, ms, &gt;= 0.
     * @param allowedLatenessMs the allowed lateness, ms, &gt;= 0.
     * @param reachMs           the window's size, or the session gap, ms, &gt;= 0.
     */
    public Horizon(final long outOfOrdernessMs, final long allowedLatenessMs, final long reachMs)
    {
        if (outOfOrdernessMs < 0 || allowedLatenessMs < 0 || reachMs < 0)
        {
            throw new IllegalArgumentException(
                "durations must be >= 0 ms: " + outOfOrdernessMs + ", " + allowedLatenessMs + ", " + reachMs);
        }
        this.behind = add(add(outOfOrdernessMs, allowedLatenessMs), reachMs);
    }

    /**
     * @param time an event's or a heartbeat's time, epoch ms.
     */
    public void read(final long time)
    {
        if (time > maxTime)
        {
            maxTime = time;
        }
    }

    /** @return the greatest time read so far, or {@link Long#MIN_VALUE} before any. */
    public long maxTime()
    {
        return maxTime;
    }

    /**
     * @param time the greatest time read before (a restored state's), or {@link Long#MIN_VALUE}.
     */
    public void restore(final long time)
    {
        maxTime = time;
    }

    /** @return {@code maxTime - outOfOrderness - allowedLateness - reach}, saturated at {@link Long#MIN_VALUE}. */
    public long horizon()
    {
        final long h = maxTime - behind;
        return h > maxTime ? Long.MIN_VALUE : h;
    }

    private static long add(final long a, final long b)
    {
        final long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }
}
