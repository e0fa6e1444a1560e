package dev.weir.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.Pipeline;
import dev.weir.engine.PipelineBuilder;
import dev.weir.engine.Weir;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventViewConsumer;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * How long does a pipeline take to get its joined table back? The journal ({@link Workloads#payments}) holds a card
 * table of {@value #TABLE_ROWS} rows (one per card, before the events), then {@value #EVENTS} events on 10,000 of
 * those cards. One shot starts a pipeline (tumbling 10 s, output journal) and times it until it has processed its
 * first event: {@code from=checkpoint} resumes from the checkpoint at the 1,000,000th event (newer ones deleted, as
 * {@link RecoveryBenchmark} does), {@code from=start} starts with no checkpoint. With {@code joins=1} (the card
 * table joined) the pipeline must first read the table: a resumed run rebuilds the join's state by reading the
 * journal before its checkpoint (the rows, and the events' times for the horizon; the checkpoint holds no copy of
 * the table), a fresh run reads the rows on its way to the first event. {@code joins=0} is the same pipeline without
 * the join, for the difference.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(1)
public class JoinRecoveryBenchmark
{
    static final int TABLE_ROWS = 1_000_000;
    /** Half a checkpoint interval past the 1,000,000th event, so the checkpoint resumed from is mid-journal. */
    static final int EVENTS = 1_250_000;

    @Param({"checkpoint", "start"})
    public String from;

    @Param({"0", "1"})
    public int joins;

    private Path journal;
    private CrashedCheckpoints checkpoints;
    private long firstEvent = -1;
    private Pipeline pipeline;

    @Setup(Level.Trial)
    public void fill() throws IOException
    {
        journal = Workloads.payments(EVENTS, 10_000, 0.1, 42, TABLE_ROWS, 1);
        try (JournalReader reader = JournalReader.open(JournalDirectory.open(journal)))
        {
            final EventViewConsumer first = new EventViewConsumer()
            {
                @Override
                public void onEvent(final long offset, final EventView event)
                {
                    if (firstEvent < 0)
                    {
                        firstEvent = offset;
                    }
                }
            };
            while (firstEvent < 0 && reader.poll(first, 4096) > 0)
            {
                // read on to the first event
            }
        }
        if ("start".equals(from))
        {
            return;
        }
        builder().build().runToEnd();
        checkpoints = CrashedCheckpoints.crash(journal);
    }

    @Benchmark
    public long restore() throws InterruptedException
    {
        pipeline = builder().build().start();
        final long first = "start".equals(from) ? firstEvent : pipeline.restoredFrom().sourceOffset() + 1;
        if (!pipeline.awaitOffset(first, 120, TimeUnit.SECONDS))
        {
            throw new IllegalStateException("no event processed");
        }
        return first;
    }

    @TearDown(Level.Invocation)
    public void forgetNewState() throws IOException
    {
        if (pipeline != null)
        {
            pipeline.stop();
            pipeline = null;
        }
        if ("start".equals(from))
        {
            Workloads.deleteOutputs(journal);
            return;
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
        final PipelineBuilder builder = Weir.pipeline().journal(journal).keyColumn("card").valueColumn("amount")
            .window(TumblingWindows.of(Duration.ofSeconds(10))).outOfOrderness(Duration.ofSeconds(1)).checkpointEvery(500_000)
            .initialWindows(64 * 1024);
        return joins > 0 ? builder.join("cards") : builder;
    }
}
