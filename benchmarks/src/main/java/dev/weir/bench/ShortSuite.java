package dev.weir.bench;

import static dev.weir.bench.FigureTable.bytes;
import static dev.weir.bench.FigureTable.millions;
import static dev.weir.bench.FigureTable.percentiles;
import static dev.weir.bench.FigureTable.ratio;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import dev.weir.engine.PipelineLayout;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * {@code weir bench}: a short version of the whole benchmark suite, in about two minutes on
 * two cores, printed as one table ({@code figure | Weir | baseline | ratio | unit}).
 * <p>
 * The throughput benchmarks run through JMH's {@link Runner} with one fork each, one warm-up iteration of
 * 1 s and two measured iterations of 1 s (an iteration lasts at least one invocation: 2,000,000 events
 * for the end-to-end, baseline, scan and NEXMark benchmarks), the JVM flags of {@link BenchRunner}
 * appended to every fork and the GC profiler on, for allocation per event
 * ({@value #ALLOC_NORM}): end-to-end (output journal, the default layout of a bounded run) against the
 * naive baseline for tumbling, sliding and session windows; the raw journal scan and append; the
 * NEXMark-shaped queries; allocation per stage ({@link StageBenchmark}, tumbling). Latency
 * ({@link LatencyRun}, tumbling 1 s windows, 2 s warm-up, 3 s recorded, at 100,000 and 1,000,000 events/s, the default layout
 * of a following pipeline) and state size ({@link StateSize}, a million open windows) run in this JVM,
 * holding JMH's lock file so that no other JMH run starts meanwhile. Progress goes to standard error, JMH's own output to one log file per step
 * in a temporary directory, the table to standard output. Figures from so few iterations are rough:
 * use the full benchmarks ({@code java -jar benchmarks/target/benchmarks.jar}) for ones to publish.
 * <p>
 * Thread-safety: one instance per run, used by the thread that calls {@link #run(PrintStream)}.
 */
public final class ShortSuite
{
    /** The GC profiler's secondary result: bytes allocated per operation (JMH 1.37 spelling). */
    static final String ALLOC_NORM = "gc.alloc.rate.norm";
    /** The same result as older JMH versions name it. */
    private static final String ALLOC_NORM_OLD = "·gc.alloc.rate.norm";

    /**
     * The layouts a pipeline gets when none is set ({@code PipelineBuilder#layout}): FUSED for a bounded run
     * ({@code runToEnd}, as in the end-to-end benchmark), INLINE for a following one ({@code start}, as in
     * {@link LatencyRun}). The engine resolves them when it builds the pipeline and exposes neither, and
     * both benchmarks take a layout, so they are named here: keep them in step with the builder.
     */
    private static final PipelineLayout BOUNDED_LAYOUT = PipelineLayout.FUSED;
    private static final PipelineLayout FOLLOWING_LAYOUT = PipelineLayout.INLINE;

    private static final String[] WINDOWS = {"tumbling", "sliding", "session"};
    private static final String[] QUERIES = {"q5", "q7", "q11"};
    private static final long[] RATES = {100_000, 1_000_000};
    private static final int STEPS = 8;
    private static final String NONE = FigureTable.NONE;
    private static final String EVENTS_PER_SECOND = "events/s";
    private static final String BYTES_PER_EVENT = "B/event";
    private static final String PERCENTILES = "µs p50 / p99 / p99.99 / max";

    private final String[] jvmFlags;
    private final Path logs;
    private final PrintStream progress;
    private final FigureTable table = new FigureTable();
    private final long started = System.nanoTime();
    private long lockWaitNanos;
    private int step;

    /**
     * @param jvmFlags flags appended to every JMH fork.
     * @param logs     directory for JMH's output, one file per step.
     * @param progress where progress lines go.
     */
    ShortSuite(final String[] jvmFlags, final Path logs, final PrintStream progress)
    {
        this.jvmFlags = jvmFlags.clone();
        this.logs = logs;
        this.progress = progress;
    }

    /**
     * Run the short suite and print its table to standard output.
     *
     * @param args none.
     * @throws RunnerException      if JMH fails.
     * @throws IOException          if the flags, a log file or a journal cannot be read or written.
     * @throws InterruptedException if interrupted.
     */
    public static void main(final String[] args) throws RunnerException, IOException, InterruptedException
    {
        if (args.length > 0)
        {
            System.err.println("usage: weir bench   (no arguments; the full suite: java -jar benchmarks/target/benchmarks.jar -h)");
            System.exit(2);
        }
        new ShortSuite(BenchRunner.jvmFlags(), Files.createTempDirectory("weir-bench-logs-"), System.err).run(System.out);
    }

    /**
     * Run every step, then print the table and the total duration.
     *
     * @param out where the table goes.
     * @throws RunnerException      if JMH fails.
     * @throws IOException          if a log file or a journal cannot be written.
     * @throws InterruptedException if interrupted.
     */
    public void run(final PrintStream out) throws RunnerException, IOException, InterruptedException
    {
        progress("end-to-end, output journal, layout " + BOUNDED_LAYOUT + " (JMH)");
        final Map<String, RunResult> weir = byParam(jmh("end-to-end", options(EndToEndBenchmark.class, "run")
            .param("window", WINDOWS).param("layout", BOUNDED_LAYOUT.name()).param("output", "journal")), "window");

        progress("naive baseline (JMH; each first checks that it agrees with Weir)");
        final Map<String, RunResult> naive = byParam(jmh("baseline", options(BaselineBenchmark.class, "naive")
            .param("window", WINDOWS)), "window");

        progress("journal scan and append (JMH)");
        final Map<String, RunResult> journal = byMethod(jmh("journal", options(JournalScanBenchmark.class, "scan")
            .include(pattern(JournalAppendBenchmark.class, "append"))));

        progress("NEXMark q5, q7, q11 (JMH)");
        final Map<String, RunResult> nexmark = byParam(jmh("nexmark", options(NexmarkBenchmark.class, "run")
            .param("query", QUERIES)), "query");

        progress("allocation per stage, tumbling (JMH)");
        final Map<String, RunResult> stages = byMethod(jmh("stage", options(StageBenchmark.class, "assign", "aggregate", "outputAppend")
            .param("window", "tumbling")));

        final List<LatencyRun.Latencies> latencies = new ArrayList<>();
        for (final long rate : RATES)
        {
            progress(String.format("latency at %,d events/s offered, layout %s (in this JVM: tumbling 1 s, 2 s warm-up, 3 s recorded)", rate,
                FOLLOWING_LAYOUT));
            latencies.add(underJmhLock(() -> new LatencyRun(rate, 2, 3, "yielding", "yielding", FOLLOWING_LAYOUT, 1_000).run()));
        }

        progress(String.format("state size, %,d open windows each (in this JVM)", StateSize.DEFAULT_WINDOWS));
        final List<StateSize.Result> states = underJmhLock(() ->
        {
            final List<StateSize.Result> results = new ArrayList<>();
            for (final String window : WINDOWS)
            {
                results.add(StateSize.measure(window, StateSize.DEFAULT_WINDOWS));
            }
            return results;
        });

        throughputRows(weir, naive, journal, nexmark);
        allocationRows(weir, naive, stages, journal);
        for (final StateSize.Result state : states)
        {
            row("state per open window, " + state.window() + " (heap growth / retainedBytes)",
                String.format("%.1f / %.1f", state.heapBytesPerWindow(), state.retainedBytesPerWindow()), NONE, NONE, "B/window");
            row(String.format("state of %,d open windows, %s (heap growth)", state.openWindows(), state.window()),
                String.format("%.1f", state.heapMegabytes()), NONE, NONE, "MiB");
        }
        for (final LatencyRun.Latencies l : latencies)
        {
            final String load = String.format("%,d events/s offered (%,.0f achieved), %s", l.rate(), l.achieved(), FOLLOWING_LAYOUT);
            row(String.format("latency to applied, %s, n=%,d", load, l.applied().getTotalCount()), percentiles(l.applied()), NONE, NONE,
                PERCENTILES);
            row(String.format("latency to result in journal, %s, n=%,d", load, l.result().getTotalCount()), percentiles(l.result()), NONE,
                NONE, PERCENTILES);
        }

        table.print(out);
        final double total = (System.nanoTime() - started) / 1e9;
        out.printf("%ntotal %d min %02d s (%.1f s)%s; JMH output: %s%n", (int)total / 60, (int)total % 60, total,
            lockWaitNanos > 0 ? String.format(", of which %.1f s waiting for another JMH run's lock", lockWaitNanos / 1e9) : "", logs);
    }

    private void throughputRows(
        final Map<String, RunResult> weir,
        final Map<String, RunResult> naive,
        final Map<String, RunResult> journal,
        final Map<String, RunResult> nexmark)
    {
        final String[] names = {"tumbling 10 s", "sliding 10 s / 2 s", "session, gap 10 s"};
        for (int i = 0; i < WINDOWS.length; i++)
        {
            final double w = score(weir.get(WINDOWS[i]));
            final double b = score(naive.get(WINDOWS[i]));
            row("end-to-end " + names[i] + " (output journal, " + BOUNDED_LAYOUT + ") vs naive", millions(w), millions(b), ratio(w, b),
                EVENTS_PER_SECOND);
        }
        final double scan = score(journal.get("scan"));
        row("raw journal scan (ratio: end-to-end tumbling / scan)", millions(scan), NONE, ratio(score(weir.get("tumbling")), scan),
            EVENTS_PER_SECOND);
        row("journal append, known key id", millions(score(journal.get("append"))), NONE, NONE, EVENTS_PER_SECOND);
        final String[] queries = {"q5 hot items, sliding 10 s / 2 s", "q7 highest bid, tumbling 10 s", "q11 user sessions, gap 10 s"};
        for (int i = 0; i < QUERIES.length; i++)
        {
            row("NEXMark " + queries[i], millions(score(nexmark.get(QUERIES[i]))), NONE, NONE, EVENTS_PER_SECOND);
        }
    }

    private void allocationRows(
        final Map<String, RunResult> weir,
        final Map<String, RunResult> naive,
        final Map<String, RunResult> stages,
        final Map<String, RunResult> journal)
    {
        for (final String window : WINDOWS)
        {
            final double w = alloc(weir.get(window));
            final double b = alloc(naive.get(window));
            row("allocation, end-to-end " + window + " vs naive (includes start-up)", bytes(w), bytes(b), ratio(w, b), BYTES_PER_EVENT);
        }
        row("allocation, stage assign (tumbling)", bytes(alloc(stages.get("assign"))), NONE, NONE, BYTES_PER_EVENT);
        row("allocation, stage aggregate (tumbling)", bytes(alloc(stages.get("aggregate"))), NONE, NONE, BYTES_PER_EVENT);
        row("allocation, stage outputAppend", bytes(alloc(stages.get("outputAppend"))), NONE, NONE, "B/result");
        row("allocation, journal append", bytes(alloc(journal.get("append"))), NONE, NONE, BYTES_PER_EVENT);
        row("allocation, journal scan", bytes(alloc(journal.get("scan"))), NONE, NONE, BYTES_PER_EVENT);
    }

    private ChainedOptionsBuilder options(final Class<?> benchmark, final String... methods)
    {
        final ChainedOptionsBuilder options = new OptionsBuilder()
            .forks(1)
            .warmupIterations(1)
            .warmupTime(TimeValue.seconds(1))
            .measurementIterations(2)
            .measurementTime(TimeValue.seconds(1))
            .jvmArgsAppend(jvmFlags)
            .addProfiler(GCProfiler.class)
            .shouldFailOnError(false);
        for (final String method : methods)
        {
            options.include(pattern(benchmark, method));
        }
        return options;
    }

    private static String pattern(final Class<?> benchmark, final String method)
    {
        return "^" + Pattern.quote(benchmark.getName() + "." + method) + "$";
    }

    /**
     * Run JMH once another JMH run's lock is free; retry if one took the lock meanwhile.
     */
    private Collection<RunResult> jmh(final String name, final ChainedOptionsBuilder options)
        throws RunnerException, IOException, InterruptedException
    {
        final Path log = logs.resolve(name + ".log");
        options.output(log.toString());
        while (true)
        {
            underJmhLock(() -> null);
            try
            {
                final Collection<RunResult> results = new Runner(options.build()).run();
                if (results.isEmpty())
                {
                    progress.println("weir bench: no results from " + name + ", see " + log);
                }
                return results;
            }
            catch (final RunnerException e)
            {
                if (e.getMessage() == null || !e.getMessage().contains("JMH lock"))
                {
                    throw e;
                }
            }
        }
    }

    /**
     * Run a step holding JMH's lock file (waiting while another JMH run holds it).
     */
    private <T> T underJmhLock(final Step<T> work) throws IOException, InterruptedException
    {
        final Path lockFile = Path.of(System.getProperty("java.io.tmpdir"), "jmh.lock");
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE))
        {
            final long waitFrom = System.nanoTime();
            FileLock lock = channel.tryLock();
            if (lock == null)
            {
                progress.println("weir bench: another JMH run holds " + lockFile + ", waiting ...");
                while (lock == null)
                {
                    Thread.sleep(2_000);
                    lock = channel.tryLock();
                }
                lockWaitNanos += System.nanoTime() - waitFrom;
            }
            try
            {
                return work.run();
            }
            finally
            {
                lock.release();
            }
        }
    }

    private void progress(final String what)
    {
        final long seconds = (System.nanoTime() - started - lockWaitNanos) / 1_000_000_000L;
        progress.printf("weir bench [%d/%d, %d:%02d] %s%n", ++step, STEPS, seconds / 60, seconds % 60, what);
    }

    private Map<String, RunResult> byParam(final Collection<RunResult> results, final String param)
    {
        final Map<String, RunResult> map = new HashMap<>();
        for (final RunResult result : results)
        {
            map.put(result.getParams().getParam(param), result);
        }
        return map;
    }

    private Map<String, RunResult> byMethod(final Collection<RunResult> results)
    {
        final Map<String, RunResult> map = new HashMap<>();
        for (final RunResult result : results)
        {
            final String benchmark = result.getParams().getBenchmark();
            map.put(benchmark.substring(benchmark.lastIndexOf('.') + 1), result);
        }
        return map;
    }

    private static double score(final RunResult result)
    {
        return result == null ? Double.NaN : result.getPrimaryResult().getScore();
    }

    private static double alloc(final RunResult result)
    {
        if (result == null)
        {
            return Double.NaN;
        }
        final Map<String, Result> secondary = result.getSecondaryResults();
        final Result norm = secondary.containsKey(ALLOC_NORM) ? secondary.get(ALLOC_NORM) : secondary.get(ALLOC_NORM_OLD);
        return norm == null ? Double.NaN : norm.getScore();
    }

    private void row(final String figure, final String weir, final String baseline, final String ratio, final String unit)
    {
        table.row(figure, weir, baseline, ratio, unit);
    }

    /**
     * One step of the suite run under JMH's lock.
     *
     * @param <T> what it returns.
     */
    @FunctionalInterface
    private interface Step<T>
    {
        T run() throws IOException, InterruptedException;
    }
}
