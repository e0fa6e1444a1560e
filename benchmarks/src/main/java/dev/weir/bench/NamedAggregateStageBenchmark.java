package dev.weir.bench;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.aggregate.AggregateInputs;
import dev.weir.engine.aggregate.BoundAggregates;
import dev.weir.engine.emit.LateListener;
import dev.weir.engine.emit.ResultListener;
import dev.weir.engine.operator.OperatorConfiguration;
import dev.weir.engine.operator.WindowAggregator;
import dev.weir.engine.operator.WindowAssigner;
import dev.weir.engine.source.EventSlot;
import dev.weir.journal.schema.EventView;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What do named aggregates cost each stage, per event? The stages of {@link StageBenchmark} on an endless stream of
 * trades over the {@link Workloads#TRADES} columns (10,000 instruments, 10,000 trades per second of event time, up to
 * 50 ms out of order, out-of-orderness 1 s), one operation per event, on one thread, so the figure does not depend on
 * how the pipeline's threads share the cores:
 * <ul>
 * <li>{@code inputs}: the publisher's share, {@link AggregateInputs#fill} (every aggregate's value and filter);</li>
 * <li>{@code aggregate}: the window stage's share: assignment, then aggregation, firing and discarding
 *     ({@link WindowAggregator}), the event's inputs computed beforehand; results go to a blackhole.</li>
 * </ul>
 * {@code aggregates} as in {@link NamedAggregatesBenchmark}: {@code value} (the built-in aggregates of {@code qty}:
 * no inputs), {@code sum} ({@code volume=sum(qty)}) or {@code candle} ({@link NamedAggregatesBenchmark#CANDLE}).
 * Run with {@code -prof gc} to see that neither allocates in steady state.
 * <p>
 * Thread-safety: JMH runs it on one thread.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class NamedAggregateStageBenchmark
{
    private static final int STREAM = 1 << 20;
    private static final int KEYS = 10_000;

    @Param({"tumbling", "sliding"})
    public String window;

    @Param({"value", "sum", "candle"})
    public String aggregates;

    private final long[] jitter = new long[STREAM];
    private final int[] keys = new int[STREAM];
    private final long[] prices = new long[STREAM];
    private final long[] quantities = new long[STREAM];
    private final Trade trade = new Trade();
    private EventSlot slot;
    private AggregateInputs inputs;
    /** Each event's inputs, computed once: STREAM rows of the inputs' count. */
    private long[] filled;
    private long[] matched;
    private WindowAssigner assigner;
    private WindowAggregator aggregator;
    private long n;

    @Setup(Level.Trial)
    public void setUp(final Blackhole bh)
    {
        final SplittableRandom random = new SplittableRandom(42);
        final long[] walk = new long[KEYS];
        Arrays.fill(walk, 100_00);
        for (int i = 0; i < STREAM; i++)
        {
            jitter[i] = random.nextInt(50);
            keys[i] = random.nextInt(KEYS);
            walk[keys[i]] = Math.max(1, walk[keys[i]] + random.nextInt(5) - 2);
            prices[i] = walk[keys[i]];
            quantities[i] = 1 + random.nextInt(1_000);
        }
        final BoundAggregates named = Workloads.tradeAggregates(NamedAggregatesBenchmark.list(aggregates));
        final OperatorConfiguration configuration = OperatorConfiguration.builder(EndToEndBenchmark.spec(window)).outOfOrderness(1_000)
            .initialWindows(64 * 1024).namedAggregates(named).build();
        final ResultListener results = r -> bh.consume(r.aggregate(0) + r.count());
        assigner = configuration.newAssigner();
        aggregator = configuration.newAggregator(results, LateListener.NONE);
        slot = named == null ? new EventSlot() : new EventSlot(0, named.inputCount());
        inputs = named == null ? null : named.newInputs(null); // no filter or string column: no texts needed
        final int width = slot.inputs.length;
        filled = new long[STREAM * width];
        matched = new long[STREAM];
        for (int i = 0; inputs != null && i < STREAM; i++)
        {
            matched[i] = inputs.fill(trade.at(i), slot.inputs);
            System.arraycopy(slot.inputs, 0, filled, i * width, width);
        }
    }

    @Benchmark
    public long inputs()
    {
        if (inputs == null)
        {
            return 0; // no named aggregates: nothing to fill
        }
        final int j = (int)(n++ & (STREAM - 1));
        return inputs.fill(trade.at(j), slot.inputs);
    }

    @Benchmark
    public int aggregate()
    {
        final long i = n++;
        final int j = (int)(i & (STREAM - 1));
        slot.event(i, i, 1_700_000_000_000L + i / 10 - jitter[j], keys[j], quantities[j]);
        final int width = slot.inputs.length;
        if (width > 0)
        {
            System.arraycopy(filled, j * width, slot.inputs, 0, width);
            slot.matched = matched[j];
        }
        assigner.assign(slot);
        aggregator.apply(slot);
        return slot.windowCount;
    }

    /** One trade of the stream, as the journal reader hands events: a reused flyweight. */
    private final class Trade implements EventView
    {
        private int at;

        Trade at(final int index)
        {
            at = index;
            return this;
        }

        @Override
        public long eventId()
        {
            return at;
        }

        @Override
        public long eventTime()
        {
            return 1_700_000_000_000L + at / 10 - jitter[at];
        }

        @Override
        public long longColumn(final int column)
        {
            return column == 1 ? prices[at] : quantities[at];
        }

        @Override
        public int stringId(final int column)
        {
            return keys[at];
        }
    }
}
