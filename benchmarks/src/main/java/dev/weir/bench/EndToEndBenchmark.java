package dev.weir.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.PipelineLayout;
import dev.weir.engine.RunSummary;
import dev.weir.engine.Weir;
import dev.weir.engine.emit.ResultListener;
import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.engine.window.TumblingWindows;
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
 * How fast does a filled journal turn into results? One invocation runs the whole pipeline (journal
 * read, ring, assignment, aggregation, firing) over {@value #EVENTS} events on 10,000 keys; the score
 * is events per second. Results go to a listener that only consumes them (the output journal is
 * measured separately).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class EndToEndBenchmark
{
    static final int EVENTS = 2_000_000;

    @Param({"tumbling", "sliding", "session"})
    public String window;

    @Param({"FUSED"})
    public String layout;

    private Path journal;

    @Setup(Level.Trial)
    public void fill() throws IOException
    {
        // 10,000 events per second of event time
        journal = Workloads.filledJournal(EVENTS, 10_000, 0.1, 42);
    }

    @TearDown(Level.Trial)
    public void remove()
    {
        Workloads.delete(journal.getParent());
    }

    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public long run(final Blackhole bh)
    {
        final ResultListener sink = r -> bh.consume(r.sum());
        final RunSummary summary = Weir.pipeline()
            .journal(journal)
            .window(spec(window))
            .outOfOrderness(1_000)
            .layout(PipelineLayout.valueOf(layout))
            .ringSize(8192)
            .initialWindows(64 * 1024)
            .onResult(sink)
            .build()
            .runToEnd();
        return summary.windowsFired();
    }

    static WindowSpec spec(final String name)
    {
        switch (name)
        {
            case "tumbling":
                return TumblingWindows.of(10_000);
            case "sliding":
                return SlidingWindows.of(10_000, 2_000);
            default:
                return SessionWindows.withGap(10_000);
        }
    }
}
