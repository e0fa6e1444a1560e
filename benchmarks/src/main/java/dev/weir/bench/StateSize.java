package dev.weir.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.Reference;
import java.util.Arrays;

import dev.weir.engine.aggregate.BoundAggregates;
import dev.weir.engine.emit.LateListener;
import dev.weir.engine.operator.OperatorConfiguration;
import dev.weir.engine.operator.WindowAggregator;
import dev.weir.engine.operator.WindowAssigner;
import dev.weir.engine.source.EventSlot;
import dev.weir.engine.window.AlignedWindows;
import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.WindowSpec;

/**
 * How much memory does an open window cost? Builds the aggregation stage alone (a {@link WindowAssigner}
 * and a {@link WindowAggregator} built by an {@link OperatorConfiguration}, pre-sized for only 1,024
 * windows so that it grows as in a real run, out-of-orderness one day so that nothing fires, allowed
 * lateness 0, drop policy, no-op listeners) and feeds it events, in event-time order, until exactly
 * {@code windows} (key, window) states are open: {@value #WINDOWS_PER_KEY} per key, on
 * {@code windows / 10} keys.
 * <ul>
 * <li>tumbling 10 s: one event per key every 10 s;</li>
 * <li>sliding 10 s / 2 s: one event per key every 2 s, six of them (each lies in five windows; together
 *     they touch ten);</li>
 * <li>session, gap 10 s: one event per key every 20 s, each opening a session of its own.</li>
 * </ul>
 * Two figures per open window: what the aggregator reports retaining
 * ({@link WindowAggregator#retainedBytes()}: slot array, timers, index, at their grown capacity), and the
 * growth of the heap's used bytes after repeated {@link System#gc()}, from before the stage is built to
 * after it is filled (while it is still referenced). Run {@link #main(String[])} or
 * {@code StateSizeBenchmark}. With named aggregates ({@code --aggregates} over the {@link Workloads#TRADES} columns,
 * e.g. {@link NamedAggregatesBenchmark#CANDLE}) each slot also keeps their state, and each event carries their
 * inputs (every filter matched).
 * <p>
 * Thread-safety: {@link #measure(String, int)} keeps no shared state, but the heap figure is only
 * meaningful while nothing else in the JVM allocates or frees much: run one measurement at a time.
 */
public final class StateSize
{
    /** Open windows per key. */
    static final int WINDOWS_PER_KEY = 10;
    /** Open windows measured by {@link #main(String[])}. */
    static final int DEFAULT_WINDOWS = 1_000_000;

    private static final long OUT_OF_ORDERNESS = 86_400_000L;
    private static final long BASE = 1_700_000_000_000L;
    private static final int INITIAL_WINDOWS = 1024;
    private static final double MEGABYTE = 1024.0 * 1024.0;

    private StateSize()
    {
    }

    /**
     * One measurement.
     *
     * @param window                 tumbling, sliding or session.
     * @param openWindows            (key, window) states open when measured.
     * @param retainedBytesPerWindow {@link WindowAggregator#retainedBytes()} divided by the open windows.
     * @param heapBytesPerWindow     heap growth divided by the open windows.
     * @param heapMegabytes          heap growth, MiB (2^20 bytes), for all the open windows.
     */
    public record Result(String window, int openWindows, double retainedBytesPerWindow, double heapBytesPerWindow, double heapMegabytes)
    {
        /**
         * @return the result on one line.
         */
        public String line()
        {
            return String.format("state size %-8s %,d open windows: retained %.1f B/window, heap %.1f B/window, %.1f MiB in all",
                window, openWindows, retainedBytesPerWindow, heapBytesPerWindow, heapMegabytes);
        }
    }

    /**
     * Measure tumbling, sliding and session state for a million open windows and print the results.
     *
     * @param args optionally the number of open windows, a multiple of {@value #WINDOWS_PER_KEY}; then optionally
     *             {@code candle}, to measure windows that keep {@link NamedAggregatesBenchmark#CANDLE}.
     */
    public static void main(final String[] args)
    {
        final int windows = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_WINDOWS;
        final boolean candle = args.length > 1 && "candle".equals(args[1]);
        for (final String window : new String[] {"tumbling", "sliding", "session"})
        {
            System.out.println(measure(window, windows, candle ? NamedAggregatesBenchmark.CANDLE : null).line());
        }
    }

    /**
     * Build the aggregation stage, fill it until {@code windows} (key, window) states are open, and
     * measure it.
     *
     * @param window  tumbling (10 s), sliding (10 s / 2 s) or session (gap 10 s).
     * @param windows open windows wanted, a positive multiple of {@value #WINDOWS_PER_KEY}.
     * @return the measurement.
     * @throws IllegalArgumentException if {@code windows} is not a positive multiple of {@value #WINDOWS_PER_KEY}.
     * @throws IllegalStateException    if the filled stage does not hold exactly {@code windows} windows.
     */
    public static Result measure(final String window, final int windows)
    {
        return measure(window, windows, null);
    }

    /**
     * Build the aggregation stage with named aggregates, fill it until {@code windows} (key, window) states are open,
     * and measure it.
     *
     * @param window     tumbling (10 s), sliding (10 s / 2 s) or session (gap 10 s).
     * @param windows    open windows wanted, a positive multiple of {@value #WINDOWS_PER_KEY}.
     * @param aggregates a list of named aggregates over the {@link Workloads#TRADES} columns, or null for none.
     * @return the measurement; its window names the aggregates, if any ({@code tumbling+named}).
     * @throws IllegalArgumentException if {@code windows} is not a positive multiple of {@value #WINDOWS_PER_KEY}.
     * @throws IllegalStateException    if the filled stage does not hold exactly {@code windows} windows.
     */
    public static Result measure(final String window, final int windows, final String aggregates)
    {
        if (windows <= 0 || windows % WINDOWS_PER_KEY != 0)
        {
            throw new IllegalArgumentException("windows must be a positive multiple of " + WINDOWS_PER_KEY + ": " + windows);
        }
        final WindowSpec spec = EndToEndBenchmark.spec(window);
        final int keys = windows / WINDOWS_PER_KEY;

        final BoundAggregates named = Workloads.tradeAggregates(aggregates);
        final long before = settledHeapUsed();
        final OperatorConfiguration configuration = OperatorConfiguration.builder(spec).outOfOrderness(OUT_OF_ORDERNESS)
            .initialWindows(INITIAL_WINDOWS).namedAggregates(named).build();
        final WindowAssigner assigner = configuration.newAssigner();
        final WindowAggregator aggregator = configuration.newAggregator(r ->
        {
        }, LateListener.NONE);
        fill(spec, keys, assigner, aggregator, named == null ? new EventSlot() : new EventSlot(0, named.inputCount()));
        final long after = settledHeapUsed();

        final int open = aggregator.openWindows();
        final long retained = aggregator.retainedBytes();
        Reference.reachabilityFence(assigner);
        Reference.reachabilityFence(aggregator);
        if (open != windows)
        {
            throw new IllegalStateException(window + ": " + open + " windows open, not " + windows);
        }
        final long heap = after - before;
        return new Result(named == null ? window : window + "+named", open, (double)retained / open, (double)heap / open, heap / MEGABYTE);
    }

    /**
     * Feed events in event-time order, round after round over every key, so that each key ends with
     * {@value #WINDOWS_PER_KEY} open windows.
     */
    private static void fill(final WindowSpec spec, final int keys, final WindowAssigner assigner, final WindowAggregator aggregator,
        final EventSlot slot)
    {
        final long step;
        final int rounds;
        if (spec instanceof AlignedWindows)
        {
            // events one slide apart: the first lies in size / slide windows, each later one adds one more
            final AlignedWindows aligned = (AlignedWindows)spec;
            step = aligned.slide();
            rounds = WINDOWS_PER_KEY - (int)(aligned.size() / aligned.slide()) + 1;
        }
        else
        {
            // two gaps apart: every event opens a session of its own
            step = 2 * ((SessionWindows)spec).gap();
            rounds = WINDOWS_PER_KEY;
        }
        slot.matched = -1L; // every filter matched
        long offset = 0;
        for (int round = 0; round < rounds; round++)
        {
            final long time = BASE + round * step;
            for (int key = 0; key < keys; key++)
            {
                slot.event(offset, offset, time, key, offset % 1000);
                Arrays.fill(slot.inputs, 1 + offset % 1000);
                offset++;
                assigner.assign(slot);
                aggregator.apply(slot);
            }
        }
    }

    /**
     * @return heap bytes in use once repeated full collections no longer free anything noticeable.
     */
    static long settledHeapUsed()
    {
        final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 10; i++)
        {
            System.gc();
            final long now = memory.getHeapMemoryUsage().getUsed();
            if (i >= 2 && now >= used - 64 * 1024)
            {
                return Math.min(now, used);
            }
            used = now;
        }
        return used;
    }
}
