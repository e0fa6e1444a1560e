package dev.weir.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.Pipeline;
import dev.weir.engine.PipelineBuilder;
import dev.weir.engine.RunSummary;
import dev.weir.engine.Weir;
import dev.weir.engine.window.TumblingWindows;
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

/**
 * How long after a crash does processing resume? A journal of {@code events} events (10,000 keys,
 * tumbling 10 s) is processed with a checkpoint every 1,000,000 events; the newest checkpoints are then
 * removed (the end-of-input ones, and any that covers the last event), as if the process had died just
 * before writing them. Each invocation opens a pipeline,
 * loads and restores the newest valid checkpoint, seeks the journal to the offset it covers and waits
 * until the first event after it has been applied: that is the score. (The rest of the replay, and the
 * verification of reproduced outputs, happens after processing has resumed.)
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 10)
@Fork(1)
public class RecoveryBenchmark
{
    /** Half a checkpoint interval past the 10,000,000th event, so the last periodic checkpoint is mid-journal. */
    @Param({"10500000"})
    public int events;

    private Path journal;
    private CrashedCheckpoints checkpoints;
    private Pipeline pipeline;

    @Setup(Level.Trial)
    public void crashedJournal() throws IOException
    {
        journal = Workloads.filledJournal(events, 10_000, 0.1, 42);
        final RunSummary first = builder().build().runToEnd();
        System.out.printf("%n[setup] %,d events processed with %d checkpoints: longest pause %.1f ms, mean %.1f ms%n",
            first.events(), first.checkpoints(), first.maxCheckpointNanos() / 1e6, first.meanCheckpointNanos() / 1e6);
        // the process "died" before writing the newest checkpoints
        checkpoints = CrashedCheckpoints.crash(journal);
    }

    @Benchmark
    public long resume() throws InterruptedException
    {
        pipeline = builder().build().start();
        final long resumeAt = pipeline.restoredFrom().sourceOffset() + 1;
        if (!pipeline.awaitOffset(resumeAt, 60, TimeUnit.SECONDS))
        {
            throw new IllegalStateException("processing did not resume");
        }
        return resumeAt;
    }

    @TearDown(Level.Invocation)
    public void forgetNewCheckpoints() throws IOException
    {
        if (pipeline != null)
        {
            pipeline.stop();
            pipeline = null;
        }
        checkpoints.forgetNew();
    }

    @TearDown(Level.Trial)
    public void remove()
    {
        Workloads.delete(journal.getParent());
    }

    private PipelineBuilder builder()
    {
        return Weir.pipeline().journal(journal).window(TumblingWindows.of(Duration.ofSeconds(10))).outOfOrderness(Duration.ofSeconds(1)).checkpointEvery(1_000_000)
            .initialWindows(64 * 1024);
    }
}
