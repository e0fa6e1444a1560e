package dev.weir.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.RunSummary;
import dev.weir.engine.Weir;
import dev.weir.engine.emit.ResultListener;
import dev.weir.engine.emit.WindowResult;
import dev.weir.engine.window.WindowSpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * How fast is the straightforward implementation? {@link NaiveWindows} (one thread, {@code java.util}
 * maps of boxed keys, a wall-clock read per event) over the same journal and windows as
 * {@link EndToEndBenchmark}: {@value EndToEndBenchmark#EVENTS} events on 10,000 keys, out-of-orderness
 * 1 s; the score is events per second. Compare with {@code EndToEndBenchmark} {@code output=listener}
 * (also a replay with results handed to a listener only, no output journal, no checkpoints).
 * <p>
 * Before measuring, each trial runs Weir and the baseline once over the journal and fails with
 * {@link IllegalStateException} unless they agree: same number of results, of events aggregated, of
 * events dropped and ignored, same total of the results' sums, and the same order-independent
 * fingerprint of every result's bounds and aggregates. A baseline that computed something else would
 * make the ratio meaningless.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class BaselineBenchmark
{
    static final int EVENTS = EndToEndBenchmark.EVENTS;
    static final long OUT_OF_ORDERNESS = 1_000;

    @Param({"tumbling", "sliding", "session"})
    public String window;

    private Path journal;

    @Setup(Level.Trial)
    public void fillAndCheck() throws IOException
    {
        // the same journal as EndToEndBenchmark: 10,000 events per second of event time
        journal = Workloads.filledJournal(EVENTS, 10_000, 0.1, 42);
        checkAgainstWeir(journal, EndToEndBenchmark.spec(window), OUT_OF_ORDERNESS);
    }

    @TearDown(Level.Trial)
    public void remove()
    {
        Workloads.delete(journal.getParent());
    }

    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public long naive(final Blackhole bh)
    {
        final NaiveWindows naive = new NaiveWindows(
            EndToEndBenchmark.spec(window), OUT_OF_ORDERNESS, (count, sum, min, max, start, end, key) -> bh.consume(sum));
        final long fired = naive.run(journal);
        if (naive.events() != EVENTS)
        {
            throw new IllegalStateException("read " + naive.events() + " events, not " + EVENTS);
        }
        return fired;
    }

    /**
     * Run Weir (replay, listener only) and the baseline over a journal and check that they agree.
     *
     * @param journal        a filled journal.
     * @param spec           the windows.
     * @param outOfOrderness D, ms.
     * @throws IllegalStateException if the two disagree.
     */
    static void checkAgainstWeir(final Path journal, final WindowSpec spec, final long outOfOrderness)
    {
        final Totals weir = new Totals();
        final RunSummary summary = Weir.pipeline()
            .journal(journal)
            .window(spec)
            .outOfOrderness(Duration.ofMillis(outOfOrderness))
            .replayRange(-1, Long.MAX_VALUE)
            .onResult(weir)
            .build()
            .runToEnd();
        weir.dropped = summary.dropped();
        weir.ignored = summary.ignored();

        final Totals naive = new Totals();
        final NaiveWindows baseline = new NaiveWindows(spec, outOfOrderness, naive);
        baseline.run(journal);
        naive.dropped = baseline.dropped();
        naive.ignored = baseline.ignored();

        if (!weir.equals(naive) || summary.windowsFired() != baseline.fired() || summary.events() != baseline.events())
        {
            throw new IllegalStateException(
                "the baseline disagrees with Weir on " + spec + ": Weir " + weir + " (" + summary.events() + " events), baseline " + naive
                    + " (" + baseline.events() + " events)");
        }
    }

    /**
     * Order-independent totals of a run's results. Not thread-safe: filled on one thread, read after.
     */
    private static final class Totals implements ResultListener, NaiveWindows.ResultConsumer
    {
        long results;
        long count;
        long sum;
        long fingerprint;
        long dropped;
        long ignored;

        @Override
        public void onResult(final WindowResult result)
        {
            add(result.count(), result.sum(), result.min(), result.max(), result.windowStart(), result.windowEnd());
        }

        @Override
        public void onResult(
            final long count, final long sum, final long min, final long max, final long start, final long end, final String key)
        {
            add(count, sum, min, max, start, end);
        }

        private void add(final long count, final long sum, final long min, final long max, final long start, final long end)
        {
            results++;
            this.count += count;
            this.sum += sum;
            long h = mix(start);
            h = mix(h ^ end);
            h = mix(h ^ count);
            h = mix(h ^ sum);
            h = mix(h ^ min);
            h = mix(h ^ max);
            fingerprint += h;
        }

        private static long mix(final long x)
        {
            // the finaliser of SplitMix64
            long z = x + 0x9E3779B97F4A7C15L;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            return z ^ (z >>> 31);
        }

        @Override
        public boolean equals(final Object o)
        {
            if (!(o instanceof Totals))
            {
                return false;
            }
            final Totals other = (Totals)o;
            return results == other.results && count == other.count && sum == other.sum && fingerprint == other.fingerprint
                && dropped == other.dropped && ignored == other.ignored;
        }

        @Override
        public int hashCode()
        {
            return Long.hashCode(fingerprint);
        }

        @Override
        public String toString()
        {
            return "{results=" + results + ", count=" + count + ", sum=" + sum + ", fingerprint=" + Long.toHexString(fingerprint)
                + ", dropped=" + dropped + ", ignored=" + ignored + "}";
        }
    }
}
