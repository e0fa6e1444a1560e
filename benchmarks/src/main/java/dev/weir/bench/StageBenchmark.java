package dev.weir.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.emit.LateListener;
import dev.weir.engine.emit.ResultListener;
import dev.weir.engine.fired.FiredResult;
import dev.weir.engine.operator.OperatorConfiguration;
import dev.weir.engine.operator.WindowAggregator;
import dev.weir.engine.operator.WindowAssigner;
import dev.weir.engine.source.EventSlot;
import dev.weir.engine.window.WindowSpec;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputJournal;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Each stage of the hot path alone, one operation per event, on an endless stream (10,000 keys, 10,000
 * events per second of event time, up to 50 ms out of order, out-of-orderness 1 s): run with
 * {@code -prof gc} to see that none allocates in steady state.
 * <ul>
 * <li>{@code assign}: window assignment and the watermark ({@link WindowAssigner});</li>
 * <li>{@code aggregate}: assignment, then aggregation, firing and discarding ({@link WindowAggregator});
 *     results go to a blackhole;</li>
 * <li>{@code outputAppend}: one result appended to the output journal.</li>
 * </ul>
 * Journal append and read have their own benchmarks ({@link JournalAppendBenchmark},
 * {@link JournalScanBenchmark}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class StageBenchmark
{
    private static final int STREAM = 1 << 20;
    private static final int KEYS = 10_000;

    @Param({"tumbling", "sliding", "session"})
    public String window;

    private final EventSlot slot = new EventSlot();
    private final long[] jitter = new long[STREAM];
    private final int[] keys = new int[STREAM];
    private final long[] values = new long[STREAM];
    private WindowAssigner assigner;
    private WindowAggregator aggregator;
    private long n;
    private Path dir;
    private OutputJournal output;
    private final FiredResult appended = new FiredResult();

    @Setup(Level.Trial)
    public void setUp(final Blackhole bh) throws IOException
    {
        final SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < STREAM; i++)
        {
            jitter[i] = random.nextInt(50);
            keys[i] = random.nextInt(KEYS);
            values[i] = random.nextInt(100_000);
        }
        final WindowSpec spec = EndToEndBenchmark.spec(window);
        final OperatorConfiguration configuration = OperatorConfiguration.builder(spec).outOfOrderness(1_000).initialWindows(64 * 1024).build();
        final ResultListener results = r -> bh.consume(r.sum());
        assigner = configuration.newAssigner();
        aggregator = configuration.newAggregator(results, LateListener.NONE);
        dir = Files.createTempDirectory("weir-bench-stage-");
        try (EventJournal journal = EventJournal.openOrCreate(dir.resolve("journal")))
        {
            journal.keyId("k");
        }
        output = OutputJournal.open(JournalDirectory.open(dir.resolve("journal")));
    }

    @TearDown(Level.Trial)
    public void tearDown()
    {
        output.close();
        Workloads.delete(dir);
    }

    @Benchmark
    public int assign()
    {
        next();
        assigner.assign(slot);
        return slot.windowCount;
    }

    @Benchmark
    public int aggregate()
    {
        next();
        assigner.assign(slot);
        aggregator.apply(slot);
        return slot.windowCount;
    }

    @Benchmark
    public long outputAppend()
    {
        final long i = n++;
        final int j = (int)(i & (STREAM - 1));
        return output.appendResult(appended.window(i * 10, i * 10 + 10_000).keyId(keys[j]).count(3).sum(values[j]).min(1).max(99).version(0)
            .sourceOffset(i).withAggregate(0), false);
    }

    private void next()
    {
        final long i = n++;
        final int j = (int)(i & (STREAM - 1));
        slot.event(i, i, 1_700_000_000_000L + i / 10 - jitter[j], keys[j], values[j]);
    }
}
