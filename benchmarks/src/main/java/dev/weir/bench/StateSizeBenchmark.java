package dev.weir.bench;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * How much memory does an open window cost? One single shot of {@link StateSize#measure(String, int)}
 * for {@value StateSize#DEFAULT_WINDOWS} open windows in a fresh fork; the result (retained and heap
 * bytes per window, MiB in all) is printed. The JMH score is only the duration of building and filling
 * the state. Thread-safety: JMH runs it on one thread.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
@Fork(1)
public class StateSizeBenchmark
{
    @Param({"tumbling", "sliding", "session"})
    public String window;

    @Benchmark
    public StateSize.Result measure()
    {
        final StateSize.Result result = StateSize.measure(window, StateSize.DEFAULT_WINDOWS);
        System.out.printf("%n%s%n", result.line());
        return result;
    }
}
