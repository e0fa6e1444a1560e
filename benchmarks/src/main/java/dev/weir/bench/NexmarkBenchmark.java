package dev.weir.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

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
 * How fast are NEXMark-shaped windowed queries? {@value #BIDS} bids from {@link NexmarkBids} (NEXMark's
 * hot/cold auctions and bidders, log-uniform prices, 10,000 events per second of event time), run through
 * the default durable pipeline (every result appended to the output journal, checkpoints; both deleted
 * before each invocation) with out-of-orderness 1 s. The score is bids per second.
 * <ul>
 *   <li>{@code q5} (hot items): sliding windows of 10 s every 2 s, bids counted per auction.</li>
 *   <li>{@code q7} (highest bid): tumbling windows of 10 s, the highest price per auction.</li>
 *   <li>{@code q11} (user sessions): sessions with a 10 s gap, bids counted per bidder.</li>
 * </ul>
 * Window sizes are those of the {@code nexmark/nexmark} Flink SQL queries. Every Weir result already holds
 * count, sum, min and max, so each query is only its window and its key (auction or bidder); what NEXMark
 * does after the per-key windowed aggregate (q5's top auction per window, q7's join back to the bids with
 * that price) is not part of this measurement.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class NexmarkBenchmark
{
    static final int BIDS = 2_000_000;

    @Param({"q5", "q7", "q11"})
    public String query;

    private Path journal;

    @Setup(Level.Trial)
    public void fill() throws IOException
    {
        journal = NexmarkBids.filledJournal(BIDS, keyedBy(query), 42);
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

    @Benchmark
    @OperationsPerInvocation(BIDS)
    public long run(final Blackhole bh)
    {
        final ResultListener sink = r -> bh.consume(r.max());
        final RunSummary summary = Weir.pipeline()
            .journal(journal)
            .window(spec(query))
            .outOfOrderness(Duration.ofSeconds(1))
            .ringSize(8192)
            .initialWindows(64 * 1024)
            .onResult(sink)
            .build()
            .runToEnd();
        if (summary.events() != BIDS)
        {
            throw new IllegalStateException("processed " + summary.events() + " events, not " + BIDS);
        }
        return summary.windowsFired();
    }

    static WindowSpec spec(final String query)
    {
        switch (query)
        {
            case "q5":
                return SlidingWindows.of(Duration.ofSeconds(10), Duration.ofSeconds(2));
            case "q7":
                return TumblingWindows.of(Duration.ofSeconds(10));
            case "q11":
                return SessionWindows.withGap(Duration.ofSeconds(10));
            default:
                throw new IllegalArgumentException("unknown query " + query);
        }
    }

    static NexmarkBids.KeyedBy keyedBy(final String query)
    {
        return "q11".equals(query) ? NexmarkBids.KeyedBy.BIDDER : NexmarkBids.KeyedBy.AUCTION;
    }
}
