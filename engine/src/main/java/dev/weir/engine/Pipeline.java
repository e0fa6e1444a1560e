package dev.weir.engine;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.lmax.disruptor.ExceptionHandler;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import dev.weir.engine.emit.OutputJournalSink;
import dev.weir.engine.emit.ResultListener;
import dev.weir.engine.operator.AlignedWindowAggregator;
import dev.weir.engine.operator.OperatorCounters;
import dev.weir.engine.operator.SessionWindowAggregator;
import dev.weir.engine.operator.WindowAggregator;
import dev.weir.engine.operator.WindowAssigner;
import dev.weir.engine.ring.AggregateHandler;
import dev.weir.engine.ring.AssignHandler;
import dev.weir.engine.ring.EventSlot;
import dev.weir.engine.ring.FusedHandler;
import dev.weir.engine.ring.JournalPublisher;
import dev.weir.engine.ring.RunCompletion;
import dev.weir.engine.time.Lateness;
import dev.weir.engine.window.AlignedWindows;
import dev.weir.engine.window.SessionWindows;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.ResultJournal;

/**
 * A configured pipeline over one journal: a publisher thread reads the journal into a Disruptor ring of
 * pre-allocated {@link EventSlot}s, and the window stages (assignment, then aggregation and firing) run
 * on one consumer thread ({@link PipelineLayout#FUSED}) or two ({@link PipelineLayout#STAGED}).
 * <p>
 * {@link #runToEnd()} processes the journal from its first event to its current end, then fires every
 * open window (the watermark goes to plus infinity) and returns. A pipeline runs once.
 * Listeners are called on the last stage's thread. {@link #processedEvents()} may be read from any
 * thread while it runs; everything else belongs to the thread that calls {@link #runToEnd()}.
 */
public final class Pipeline
{
    private static final long POLL_MS = 50;

    private final PipelineBuilder config;
    private final JournalDirectory directory;
    private final RunCompletion completion = new RunCompletion();
    private boolean ran;

    Pipeline(final PipelineBuilder config)
    {
        this.config = config;
        this.directory = JournalDirectory.open(config.journal);
        if (config.window instanceof AlignedWindows)
        {
            // validate the horizon now, not on the engine thread
            newAggregator(event -> { });
        }
    }

    /**
     * Process the whole journal as a bounded input.
     *
     * @return what the run did.
     * @throws PipelineFailedException if a stage or the publisher failed.
     */
    public RunSummary runToEnd()
    {
        if (ran)
        {
            throw new IllegalStateException("a pipeline runs once");
        }
        ran = true;
        final long startedNanos = System.nanoTime();
        OutputJournalSink ownSink = null;
        ResultListener results = config.results;
        if (results == null)
        {
            ownSink = new OutputJournalSink(ResultJournal.open(directory));
            results = ownSink;
        }
        final WindowAssigner assigner = new WindowAssigner(config.window, config.outOfOrderness, new Lateness(config.allowedLateness));
        final WindowAggregator aggregator = newAggregator(results);
        final Disruptor<EventSlot> disruptor = new Disruptor<>(
            EventSlot::new, config.ringSize, new StageThreads(), ProducerType.SINGLE, config.waitStrategy.get());
        disruptor.setDefaultExceptionHandler(new FailRun(completion));
        if (config.layout == PipelineLayout.FUSED)
        {
            disruptor.handleEventsWith(new FusedHandler(assigner, aggregator, completion));
        }
        else
        {
            disruptor.handleEventsWith(new AssignHandler(assigner)).then(new AggregateHandler(aggregator, completion));
        }
        final JournalReader reader = JournalReader.open(directory);
        final long firstOffset = reader.firstOffset();
        Thread publisherThread = null;
        try
        {
            final RingBuffer<EventSlot> ring = disruptor.start();
            final JournalPublisher publisher = new JournalPublisher(reader, ring, completion);
            publisherThread = new Thread(publisher, "weir-publisher");
            publisherThread.setDaemon(true);
            publisherThread.start();
            while (!completion.await(POLL_MS, TimeUnit.MILLISECONDS))
            {
                if (!publisherThread.isAlive() && completion.failure() != null)
                {
                    break;
                }
            }
            publisherThread.join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            completion.fail(ex);
        }
        finally
        {
            disruptor.halt();
            reader.close();
            if (ownSink != null)
            {
                ownSink.close();
            }
        }
        if (completion.failure() != null)
        {
            throw new PipelineFailedException("pipeline over " + directory + " failed: " + completion.failure(), completion.failure());
        }
        final OperatorCounters c = aggregator.counters();
        return new RunSummary(
            c.events(), c.dropped(), c.sideOutput(), c.ignored(), c.windowsFired(), c.windowsOpened(),
            firstOffset, c.events() == 0 ? -1 : completion.lastOffset(), System.nanoTime() - startedNanos);
    }

    /**
     * @return ring slots applied by the last stage so far (for progress display; any thread).
     */
    public long processedEvents()
    {
        return completion.processed();
    }

    /**
     * @return the journal offset of the last slot applied so far, or -1 (any thread).
     */
    public long processedOffset()
    {
        return completion.lastOffset();
    }

    private WindowAggregator newAggregator(final ResultListener results)
    {
        final Lateness lateness = new Lateness(config.allowedLateness);
        if (config.window instanceof AlignedWindows)
        {
            return new AlignedWindowAggregator(
                (AlignedWindows)config.window, config.outOfOrderness, lateness, config.latePolicy, results, config.late,
                config.initialWindows);
        }
        return new SessionWindowAggregator(
            (SessionWindows)config.window, lateness, config.latePolicy, results, config.late, config.initialWindows);
    }

    private static final class StageThreads implements ThreadFactory
    {
        private final AtomicInteger next = new AtomicInteger();

        @Override
        public Thread newThread(final Runnable task)
        {
            final Thread thread = new Thread(task, "weir-stage-" + next.getAndIncrement());
            thread.setDaemon(true);
            return thread;
        }
    }

    private static final class FailRun implements ExceptionHandler<EventSlot>
    {
        private final RunCompletion completion;

        FailRun(final RunCompletion completion)
        {
            this.completion = completion;
        }

        @Override
        public void handleEventException(final Throwable ex, final long sequence, final EventSlot slot)
        {
            completion.fail(ex);
            throw new IllegalStateException("stage failed at ring sequence " + sequence, ex);
        }

        @Override
        public void handleOnStartException(final Throwable ex)
        {
            completion.fail(ex);
        }

        @Override
        public void handleOnShutdownException(final Throwable ex)
        {
            completion.fail(ex);
        }
    }
}
