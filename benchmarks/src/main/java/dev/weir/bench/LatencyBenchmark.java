package dev.weir.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.PipelineLayout;

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
 * Latency percentiles under an offered load ({@link LatencyRun}, tumbling 10 s windows): each single-shot
 * invocation runs 3 s of load to warm up and 10 s recorded (the first invocation, 3 s and 10 s too, is
 * the JMH warm-up, so that window firing is compiled before the recorded one), prints the percentiles and writes the two HdrHistogram
 * distributions (µs) to {@code benchmarks/latency/} (or the directory in system property
 * {@code weir.latency.dir}) as {@code <rate>-<layout>-<wait>-<idle>-applied.hgrm} and {@code -result.hgrm}; plot
 * them with {@code benchmarks/plot-latency.py}. With {@code -p early=EXPR} (e.g. {@code count>=50}) the windows also
 * emit early rows, timed from the event that made the condition true ({@code -early.hgrm}). With {@code -p pin=1} (or
 * {@code 1,0}) the engine's stage thread (and publisher thread) are pinned to those CPUs ({@code -pin1.hgrm}). With {@code -p pretouch=on} a helper thread touches the journal's pages ahead of the
 * producer's appends ({@code EventJournal.pretouch}; {@code -pretouch.hgrm}). The JMH score is only the invocation's duration.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 1)
@Fork(1)
public class LatencyBenchmark
{
    @Param({"100000", "1000000"})
    public long rate;

    @Param({"INLINE", "FUSED"})
    public String layout;

    @Param({"yielding"})
    public String wait;

    @Param({"yielding"})
    public String idle;

    /** An early condition ({@code --early-when}), e.g. {@code count>=50}: its early rows are timed too; or none. */
    @Param({"none"})
    public String early;

    /**
     * CPU pinning of the engine's threads: {@code none}, the stage thread's CPU (e.g. {@code 1}), or the stage
     * thread's and the publisher thread's ({@code 1,0}). The producer thread stays unpinned.
     */
    @Param({"none"})
    public String pin;

    /** Pre-touching the journal's next pages from a helper thread ({@code EventJournal.pretouch}): {@code none} or {@code on}. */
    @Param({"none"})
    public String pretouch;

    private boolean warm;

    @Benchmark
    public long run() throws IOException, InterruptedException
    {
        final LatencyRun.Latencies l = new LatencyRun(rate, 3, 10, wait, idle, PipelineLayout.valueOf(layout), 10_000,
            "none".equals(early) ? null : early).pin(pin).pretouch(pretouch).run();
        if (warm)
        {
            final Path dir = Path.of(System.getProperty("weir.latency.dir", "benchmarks/latency"));
            l.write(dir, rate + "-" + layout + "-" + wait + "-" + idle + ("none".equals(early) ? "" : "-early") + ("none".equals(pin) ? "" : "-pin" + pin.replace(',', '_'))
                + ("none".equals(pretouch) ? "" : "-pretouch"));
            System.out.printf("%nrate %,d/s (achieved %,.0f/s) layout=%s wait=%s idle=%s early=%s pin=%s pretouch=%s%n  applied: %s%n  result:  %s%n  early:   %s%n  appended: %s%n",
                rate, l.achieved(), layout, wait, idle, early, pin, pretouch, LatencyRun.Latencies.summary(l.applied()), LatencyRun.Latencies.summary(l.result()),
                LatencyRun.Latencies.summary(l.early()), LatencyRun.Latencies.summary(l.appended()));
        }
        warm = true;
        return l.applied().getTotalCount();
    }
}
