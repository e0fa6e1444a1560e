package dev.weir.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import com.sun.management.OperatingSystemMXBean;
import dev.weir.engine.PipelineBuilder;
import dev.weir.engine.PipelineLayout;
import dev.weir.engine.RunSummary;
import dev.weir.engine.Weir;
import dev.weir.engine.emit.ResultListener;
import org.openjdk.jmh.annotations.AuxCounters;
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
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What do named aggregates ({@code --aggregates}) cost a pipeline? One invocation runs the whole durable pipeline
 * of {@link EndToEndBenchmark} ({@code layout=FUSED}, {@code output=journal}: every result appended to the output
 * journal, a checkpoint every 1,000,000 events and at the end; both deleted before each invocation) over
 * {@value #EVENTS} trades ({@link Workloads#trades}: 10,000 instruments, 10,000 trades per second of event time,
 * up to 50 ms out of order; out-of-orderness 1 s), keyed by {@code instrument}; the score is events per second.
 * {@code aggregates} picks what each window computes:
 * <ul>
 * <li>{@code value}: today's built-in aggregates, {@code --value qty} (count, sum, min and max of one value);</li>
 * <li>{@code sum}: one named aggregate, {@code volume=sum(qty)};</li>
 * <li>{@code candle}: the seven of {@link #CANDLE}, the example (first and last by event time, a result
 *     expression).</li>
 * </ul>
 * Beside events per second it reports {@code cpuNsPerEvent}: the process's CPU time (every thread: the pipeline's,
 * the collector's, the compiler's) per event over the iteration's runs, a figure the machine's other tenants move
 * less than the wall clock's.
 * <p>
 * Each run checks its results: no aggregate empty, and with the candle {@code trades} equal to the window's count and
 * {@code high} at least {@code low}; a wrong result fails the run rather than give a figure.
 * <p>
 * Thread-safety: JMH runs it on one thread; the pipeline's threads are its own.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class NamedAggregatesBenchmark
{
    static final int EVENTS = 2_000_000;

    /** A candle with its VWAP (the example): seven named aggregates over price and quantity. */
    static final String CANDLE = "open=first(price),high=max(price),low=min(price),close=last(price),volume=sum(qty),"
        + "vwap=sum(price*qty)/sum(qty),trades=count()";
    /** One named aggregate: the volume. */
    static final String SUM = "volume=sum(qty)";
    private static final int HIGH = 1;
    private static final int LOW = 2;
    private static final int TRADES = 6;

    @Param({"tumbling", "sliding"})
    public String window;

    @Param({"value", "sum", "candle"})
    public String aggregates;

    private Path journal;

    @Setup(Level.Trial)
    public void fill() throws IOException
    {
        journal = Workloads.trades(EVENTS, 10_000, 0.1, 42);
    }

    @Setup(Level.Invocation)
    public void cleanState()
    {
        Workloads.deleteOutputs(journal);
    }

    @TearDown(Level.Trial)
    public void remove()
    {
        Workloads.delete(journal.getParent());
    }

    /**
     * @param aggregates value, sum or candle.
     * @return the list of named aggregates it stands for; null for value (the built-in aggregates of {@code qty}).
     * @throws IllegalStateException for another name.
     */
    static String list(final String aggregates)
    {
        switch (aggregates)
        {
            case "value":
                return null;
            case "sum":
                return SUM;
            case "candle":
                return CANDLE;
            default:
                throw new IllegalStateException("aggregates is value, sum or candle, not " + aggregates);
        }
    }

    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public long run(final Blackhole bh, final CpuTime cpu)
    {
        final long[] wrong = new long[1]; // written on the engine's thread, read after runToEnd
        final ResultListener sink = r ->
        {
            bh.consume(r.count());
            for (int i = 0; i < r.aggregateCount(); i++)
            {
                bh.consume(r.aggregate(i));
                if (!r.hasAggregate(i))
                {
                    wrong[0]++; // every window holds a trade of quantity 1 or more: no aggregate is empty
                }
            }
            if ("candle".equals(aggregates) && (r.aggregate(TRADES) != r.count() || r.aggregate(HIGH) < r.aggregate(LOW)))
            {
                wrong[0]++;
            }
        };
        final PipelineBuilder builder = Weir.pipeline().keyColumn("instrument");
        final String list = list(aggregates);
        if (list == null)
        {
            builder.valueColumn("qty");
        }
        else
        {
            builder.aggregates(list);
        }
        final long cpuBefore = CpuTime.processNanos();
        final RunSummary summary = builder
            .journal(journal)
            .window(EndToEndBenchmark.spec(window))
            .outOfOrderness(Duration.ofSeconds(1))
            .layout(PipelineLayout.FUSED)
            .waitStrategy(LatencyRun.waitStrategy("yielding"))
            .ringSize(8192)
            .initialWindows(64 * 1024)
            .onResult(sink)
            .build()
            .runToEnd();
        cpu.add(CpuTime.processNanos() - cpuBefore, summary.events());
        if (summary.events() != EVENTS || summary.unmatched() != 0 || wrong[0] != 0)
        {
            throw new IllegalStateException("processed " + summary.events() + " events and " + summary.unmatched() + " unmatched, not "
                + EVENTS + "; " + wrong[0] + " wrong results");
        }
        return summary.windowsFired();
    }

    /**
     * The process's CPU time per event over one iteration's runs, reported by JMH beside the score. Thread-safety: the
     * benchmark's thread only.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class CpuTime
    {
        private static final OperatingSystemMXBean SYSTEM = (OperatingSystemMXBean)ManagementFactory.getOperatingSystemMXBean();

        /**
         * CPU ns per event so far in this iteration, divided by the measurement iterations: JMH sums an event
         * counter over the iterations, so it reports their mean.
         */
        public double cpuNsPerEvent;
        private int iterations;
        private long nanos;
        private long events;

        @Setup(Level.Trial)
        public void iterations(final BenchmarkParams params)
        {
            iterations = params.getMeasurement().getCount();
        }

        @Setup(Level.Iteration)
        public void reset()
        {
            nanos = 0;
            events = 0;
            cpuNsPerEvent = 0;
        }

        void add(final long runNanos, final long runEvents)
        {
            nanos += runNanos;
            events += runEvents;
            cpuNsPerEvent = (double)nanos / events / iterations;
        }

        static long processNanos()
        {
            return SYSTEM.getProcessCpuTime();
        }
    }
}
