package dev.weir.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import dev.weir.journal.EventJournal;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * How fast is one journal append (known key id), and does it allocate? Run with {@code -prof gc}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class JournalAppendBenchmark
{
    private static final int KEYS = 10_000;

    private Path dir;
    private EventJournal journal;
    private int[] keyIds;
    private long n;

    @Setup(Level.Trial)
    public void open() throws IOException
    {
        dir = Files.createTempDirectory("weir-bench-append-");
        journal = EventJournal.openOrCreate(dir.resolve("journal"));
        keyIds = new int[KEYS];
        for (int i = 0; i < KEYS; i++)
        {
            keyIds[i] = journal.keyId("card-" + i);
        }
    }

    @TearDown(Level.Trial)
    public void close()
    {
        journal.close();
        Workloads.delete(dir);
    }

    @Benchmark
    public long append()
    {
        final long i = n++;
        return journal.append(i, 1_000_000L + i, keyIds[(int)(i % KEYS)], i);
    }
}
