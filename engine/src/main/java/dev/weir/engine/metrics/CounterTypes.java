package dev.weir.engine.metrics;

/**
 * The type id of each counter in a {@link MetricsFile}, in one place: a tool finds a counter by its type
 * id, not by parsing its label (labels are for people and may be reworded). The ids are stable: a
 * counter keeps its id across releases, a removed counter's id is not reused, a new counter takes a new id.
 * <pre>
 *   10001        every counter of a file written before counters had their own ids ({@link #LEGACY}):
 *                such a file is still read, by label
 *   10101-10118  the engine's counters, one id each (10117 and 10118 are in the files of builds since they were
 *                added; a reader finds no counter of those ids in an older file)
 *   10201-10206  the read-to-applied latency histogram: count, p50, p90, p99, p99.9, max (ns)
 *   10211-10216  the fire-to-listener latency histogram: count, p50, p90, p99, p99.9, max (ns)
 *   10301-10308  a following run's automatic retention ({@code --retention}), one id each; only in the files of
 *                runs with retention
 * </pre>
 * A histogram's six counters are {@code base + 1} to {@code base + 6}, in the order of
 * {@link #HISTOGRAM_FIELDS}. Constants only; thread-safe.
 */
public final class CounterTypes
{
    /** The one type id every counter had in files written before this class (format version 1 still). */
    public static final int LEGACY = 1_0001;

    /** Events applied since the journal's start. */
    public static final int EVENTS_APPLIED = 1_0101;
    /** Late events dropped. */
    public static final int LATE_DROPPED = 1_0102;
    /** Late events sent to the side output. */
    public static final int LATE_SIDE_OUTPUT = 1_0103;
    /** Events that fell in no window. */
    public static final int EVENTS_IN_NO_WINDOW = 1_0104;
    /** Duplicate events ignored. */
    public static final int DUPLICATES = 1_0105;
    /** Events the pipeline's filter rejected. */
    public static final int FILTERED = 1_0106;
    /** (key, window) states open now (a gauge). */
    public static final int WINDOWS_OPEN = 1_0107;
    /** Window firings, re-firings included. */
    public static final int WINDOWS_FIRED = 1_0108;
    /** The watermark, epoch ms (a gauge). */
    public static final int WATERMARK = 1_0109;
    /** The journal offset of the last event applied (a gauge). */
    public static final int OFFSET_APPLIED = 1_0110;
    /** The journal offset the last checkpoint covers (a gauge). */
    public static final int CHECKPOINT_OFFSET = 1_0111;
    /** Checkpoints taken by this run. */
    public static final int CHECKPOINTS = 1_0112;
    /** Outputs (results and late events) written by this run. */
    public static final int OUTPUTS = 1_0113;
    /** Rejected input lines read by this run. */
    public static final int REJECTED_LINES = 1_0114;
    /** The wall clock of the last poll that read an event, epoch ms. */
    public static final int LAST_EVENT_READ = 1_0115;
    /** The wall clock of the last poll that read a heartbeat, epoch ms. */
    public static final int LAST_HEARTBEAT_READ = 1_0116;
    /** Events whose computed value ({@code --value}) wrapped: a step of its arithmetic left the 64-bit range. */
    public static final int VALUES_WRAPPED = 1_0117;
    /** Additions to a window's sum that wrapped (left the 64-bit range). */
    public static final int SUMS_WRAPPED = 1_0118;
    /** Events dropped because a join found no row of their key ({@code --join-missing drop}). */
    public static final int UNMATCHED = 1_0119;

    /** Retention steps this run took (a step that removed nothing counts). */
    public static final int RETENTION_STEPS = 1_0301;
    /** Retention steps this run that failed (each logged, and retried at the next period). */
    public static final int RETENTION_FAILURES = 1_0302;
    /** Cycle files retention removed (deleted or archived) this run, events and results. */
    public static final int RETENTION_CYCLES_REMOVED = 1_0303;
    /** Bytes of the cycle files retention removed this run. */
    public static final int RETENTION_BYTES_REMOVED = 1_0304;
    /** Bytes of the cycle files the journal (events and every pipeline's results) held after the last step (a gauge). */
    public static final int RETENTION_BYTES_KEPT = 1_0305;
    /** The oldest events offset the journal held after the last step, -1 for none (a gauge). */
    public static final int RETENTION_OLDEST_OFFSET = 1_0306;
    /** The events floor the last step respected: the first offset a holder may read, {@code Long.MAX_VALUE} if none (a gauge). */
    public static final int RETENTION_EVENTS_FLOOR = 1_0307;
    /** The journal clock's time of the last step, epoch ms; 0 before the first (a gauge). */
    public static final int RETENTION_LAST_STEP = 1_0308;

    /** The base of the read-to-applied histogram's counters ({@code base + 1} to {@code base + 6}). */
    public static final int READ_TO_APPLIED = 1_0200;
    /** The base of the fire-to-listener histogram's counters ({@code base + 1} to {@code base + 6}). */
    public static final int FIRE_TO_LISTENER = 1_0210;

    /** The fields of a histogram, in the order of their type ids from {@code base + 1}. */
    public static final String[] HISTOGRAM_FIELDS = {"count", "p50", "p90", "p99", "p99.9", "max"};
    /** The percentiles of {@link #HISTOGRAM_FIELDS} 1 to 4. */
    static final double[] PERCENTILES = {50, 90, 99, 99.9};

    /** The offset from a histogram's base of its count. */
    public static final int COUNT = 1;
    /** The offset from a histogram's base of its p50. */
    public static final int P50 = 2;
    /** The offset from a histogram's base of its p90. */
    public static final int P90 = 3;
    /** The offset from a histogram's base of its p99. */
    public static final int P99 = 4;
    /** The offset from a histogram's base of its p99.9. */
    public static final int P999 = 5;
    /** The offset from a histogram's base of its max. */
    public static final int MAX = 6;

    private CounterTypes()
    {
    }

    /**
     * @param typeId a counter's type id.
     * @return the base of the histogram it belongs to ({@link #READ_TO_APPLIED} or {@link #FIRE_TO_LISTENER}),
     *         or -1 if it is not a histogram's counter.
     */
    public static int histogramOf(final int typeId)
    {
        final int base = typeId - (typeId - READ_TO_APPLIED) % 10;
        final boolean field = typeId > base && typeId <= base + MAX;
        return field && (base == READ_TO_APPLIED || base == FIRE_TO_LISTENER) ? base : -1;
    }

    /**
     * @param base a histogram's base type id.
     * @return its name: {@code read-to-applied} or {@code fire-to-listener}.
     */
    public static String histogramName(final int base)
    {
        switch (base)
        {
            case READ_TO_APPLIED:
                return "read-to-applied";
            case FIRE_TO_LISTENER:
                return "fire-to-listener";
            default:
                throw new IllegalArgumentException("not a histogram's type id: " + base);
        }
    }
}
