package dev.weir.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import dev.weir.journal.EventViewConsumer;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.codec.EventConsumer;
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
 * How fast can the journal be read at all? The raw scan of the same journal {@link EndToEndBenchmark}
 * processes: the ceiling for end-to-end throughput. Score: events per second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class JournalScanBenchmark
{
    /** four: the default columns, read field by field; six: a six-column journal of the same events, read whole (EventView). */
    @Param({"four"})
    public String columns;

    private Path journal;

    @Setup(Level.Trial)
    public void fill() throws IOException
    {
        journal = Workloads.filledJournal(columns, EndToEndBenchmark.EVENTS, 10_000, 0.1, 42);
    }

    @TearDown(Level.Trial)
    public void remove()
    {
        Workloads.delete(journal.getParent());
    }

    @Benchmark
    @OperationsPerInvocation(EndToEndBenchmark.EVENTS)
    public long scan(final Blackhole bh)
    {
        final long[] sum = {0};
        try (JournalReader reader = JournalReader.open(JournalDirectory.open(journal)))
        {
            if ("six".equals(columns))
            {
                final EventViewConsumer whole = (offset, e) -> sum[0] += e.longColumn(3) + e.stringId(0);
                while (reader.poll(whole, 4096) > 0)
                {
                    bh.consume(sum[0]);
                }
            }
            else
            {
                final EventConsumer consumer = (offset, id, time, key, value) -> sum[0] += value;
                while (reader.poll(consumer, 4096) > 0)
                {
                    bh.consume(sum[0]);
                }
            }
        }
        return sum[0];
    }
}
