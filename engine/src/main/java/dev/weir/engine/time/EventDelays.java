package dev.weir.engine.time;

/**
 * How far behind the newest event time each event came: a fixed-size histogram of delays ({@code the newest
 * event time seen before the event minus its time}, 0 for an event at or after it), counted in buckets whose
 * upper bounds are readable durations (1ms, 2ms, 5ms ... 1s, 2s, 3s, 4s, 5s, 6s, 8s, 10s, 15s ... 1m, 2m, 3m, 5m
 * ... 1d, 2d, 3d, 7d, 14d, 30d, 90d, 365d), and the longest delay. It answers the smallest such out-of-orderness that would have kept a share of the
 * events on time ({@link #outOfOrdernessKeeping(int)}): an event whose delay is at most the out-of-orderness is
 * never late, since the watermark before it is at most the newest event time less the out-of-orderness.
 * <p>
 * Recording is a binary search over the bounds and an increment: nothing is allocated. Not thread-safe: one
 * owner thread records (the window stage's); read it from that thread, or from another once the run has stopped.
 */
public final class EventDelays
{
    private static final long SECOND = 1_000;
    private static final long MINUTE = 60 * SECOND;
    private static final long HOUR = 60 * MINUTE;
    private static final long DAY = 24 * HOUR;
    /** The upper bound (inclusive) of each bucket, ms; delays beyond the last fall in one more bucket. */
    private static final long[] BOUNDS = {
        0, 1, 2, 5, 10, 20, 50, 100, 200, 300, 500,
        SECOND, 2 * SECOND, 3 * SECOND, 4 * SECOND, 5 * SECOND, 6 * SECOND, 8 * SECOND, 10 * SECOND, 15 * SECOND, 20 * SECOND,
        30 * SECOND, 45 * SECOND,
        MINUTE, 2 * MINUTE, 3 * MINUTE, 5 * MINUTE, 10 * MINUTE, 15 * MINUTE, 20 * MINUTE, 30 * MINUTE, 45 * MINUTE,
        HOUR, 2 * HOUR, 3 * HOUR, 4 * HOUR, 6 * HOUR, 8 * HOUR, 12 * HOUR,
        DAY, 2 * DAY, 3 * DAY, 7 * DAY, 14 * DAY, 30 * DAY, 90 * DAY, 365 * DAY};

    private final long[] counts = new long[BOUNDS.length + 1];
    private long total;
    private long longest;

    /**
     * @param delay an event's delay, ms; a negative one (the event is the newest) counts as 0.
     */
    public void record(final long delay)
    {
        final long d = Math.max(0, delay);
        int low = 0;
        int high = BOUNDS.length; // the bucket is the first whose bound is >= d, or the last (beyond every bound)
        while (low < high)
        {
            final int mid = (low + high) >>> 1;
            if (BOUNDS[mid] < d)
            {
                low = mid + 1;
            }
            else
            {
                high = mid;
            }
        }
        counts[low]++;
        total++;
        if (d > longest)
        {
            longest = d;
        }
    }

    /**
     * @return the events recorded.
     */
    public long events()
    {
        return total;
    }

    /**
     * @return the longest delay recorded, ms (0 when none).
     */
    public long longest()
    {
        return longest;
    }

    /**
     * @param percent the share of events to keep on time, 1 to 100.
     * @return the smallest readable out-of-orderness (a bucket bound, or the longest delay rounded up to whole
     *         days beyond 365 days), ms, that at least {@code percent}% of the events recorded were no further
     *         behind than; -1 when none were recorded.
     */
    public long outOfOrdernessKeeping(final int percent)
    {
        if (percent < 1 || percent > 100)
        {
            throw new IllegalArgumentException("percent must be from 1 to 100: " + percent);
        }
        if (total == 0)
        {
            return -1;
        }
        final long needed = (total * percent + 99) / 100; // ceil(total * percent / 100), at least 1
        long seen = 0;
        for (int i = 0; i < BOUNDS.length; i++)
        {
            seen += counts[i];
            if (seen >= needed)
            {
                return BOUNDS[i];
            }
        }
        return (longest + DAY - 1) / DAY * DAY;
    }
}
