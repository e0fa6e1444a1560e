package dev.weir.engine;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.lmax.disruptor.ExceptionHandler;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.SleepingWaitStrategy;
import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.YieldingWaitStrategy;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import dev.weir.engine.checkpoint.Checkpoint;
import dev.weir.engine.checkpoint.CheckpointMismatchException;
import dev.weir.engine.checkpoint.CheckpointStore;
import dev.weir.engine.checkpoint.Checkpointer;
import dev.weir.engine.emit.LateListener;
import dev.weir.engine.emit.OutputJournalSink;
import dev.weir.engine.emit.ResultListener;
import dev.weir.engine.metrics.EngineCounters;
import dev.weir.engine.metrics.MetricsFile;
import dev.weir.engine.operator.OperatorConfiguration;
import dev.weir.engine.operator.OperatorCounters;
import dev.weir.engine.operator.WindowAggregator;
import dev.weir.engine.operator.WindowAssigner;
import dev.weir.engine.stage.AggregateHandler;
import dev.weir.engine.stage.AssignHandler;
import dev.weir.engine.source.EventSlot;
import dev.weir.engine.stage.FusedHandler;
import dev.weir.engine.source.InlineJournalWaitStrategy;
import dev.weir.engine.source.JournalPublisher;
import dev.weir.engine.stage.LastStage;
import dev.weir.engine.stage.RunCompletion;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.OutputJournal;
import org.agrona.concurrent.IdleStrategy;

/**
 * A configured pipeline over one journal: the journal is read into a Disruptor ring of pre-allocated
 * {@link EventSlot}s, and the window stages (assignment; then aggregation, firing and checkpointing)
 * process it: a publisher thread and one consumer thread ({@link PipelineLayout#FUSED}) or two
 * ({@link PipelineLayout#STAGED}), or one thread that reads the journal into the ring itself whenever it
 * has processed every slot ({@link PipelineLayout#INLINE}).
 * <p>
 * With durable outputs (the default) a run first restores the journal's newest valid checkpoint, if
 * any, and resumes reading just after the offset it covers; outputs reproduced between that checkpoint
 * and the crash are verified against the output journal and suppressed, so every result is written
 * once. {@link #runToEnd()} processes to the journal's current end, fires every open window (the
 * watermark goes to plus infinity) and checkpoints. {@link #start()} follows the journal for new events
 * until {@link #stop()}, which checkpoints without firing open windows.
 * <p>
 * A following pipeline whose stage or publisher fails processes nothing more: the failure reaches the
 * application through {@link PipelineBuilder#onFailure(PipelineFailureListener)} at once, and
 * {@link #awaitOffset} and {@link #stop()} throw it.
 * <p>
 * A pipeline runs once. Result, late and applied listeners are called on the last stage's thread; the
 * failure listener on the thread that saw the failure. {@link #processedEvents()} and
 * {@link #processedOffset()} may be read from any thread; everything else belongs to the thread that
 * starts the pipeline.
 */
public final class Pipeline implements AutoCloseable
{
    private static final long POLL_MS = 50;

    private final PipelineBuilder config;
    private final OperatorConfiguration operators;
    private final JournalDirectory directory;
    private final RunCompletion completion;
    private final StageThreads stageThreads;
    private boolean started;
    private boolean closed;
    private long startedNanos;
    private WindowAggregator aggregator;
    private Checkpointer checkpointer;
    private Checkpoint restored;
    private OutputJournalSink sink;
    private Disruptor<EventSlot> disruptor;
    private MetricsFile metrics;
    private EventJournal producer;
    private JournalReader reader;
    private JournalPublisher publisher;
    private Thread publisherThread;
    private long firstOffset = -1;
    private long eventsAtStart;
    private RunSummary summary;

    Pipeline(final PipelineBuilder config)
    {
        this.config = config;
        this.completion = new RunCompletion(config.failure == null ? null : config.failure::onFailure);
        this.stageThreads = new StageThreads(completion);
        this.directory = JournalDirectory.open(config.journal);
        this.operators = OperatorConfiguration.builder(config.window).outOfOrderness(config.outOfOrderness)
            .allowedLateness(config.allowedLateness).latePolicy(config.latePolicy).dedupe(config.dedupe).aggregation(config.aggregation)
            .initialWindows(config.initialWindows).build();
        if (config.durableOutput)
        {
            final CheckpointStore.Loaded newest = new CheckpointStore(directory.checkpoints(), 3).loadNewestValid();
            if (newest != null && !Checkpointer.describe(newest).configuration().equals(configuration()))
            {
                throw new CheckpointMismatchException("the journal was processed with [" + Checkpointer.describe(newest).configuration()
                    + "], not [" + configuration() + "]; run with the same flags, or use 'weir replay' for another configuration");
            }
        }
    }

    /**
     * Process the journal as a bounded input: to its current end (or the replay range's end), then fire
     * every open window.
     *
     * @return what the run did.
     * @throws PipelineFailedException if a stage or the publisher failed.
     */
    public RunSummary runToEnd()
    {
        begin(false);
        awaitCompletion();
        return finish();
    }

    /**
     * Start following the journal: new events are processed as they are appended, until {@link #stop()}.
     *
     * @return this.
     */
    public Pipeline start()
    {
        begin(true);
        return this;
    }

    /**
     * Stop a following pipeline: process what has been published, checkpoint (open windows stay open, to
     * be resumed), and release its threads and files. Does nothing after a run has finished.
     *
     * @return what the run did, or null if it never started.
     */
    public RunSummary stop()
    {
        if (summary != null || !started)
        {
            return summary;
        }
        publisher.stop();
        awaitCompletion();
        return finish();
    }

    /**
     * Wait until the last stage has applied the journal document at {@code offset} (or a later one).
     *
     * @param offset  a journal offset.
     * @param timeout how long to wait at most.
     * @param unit    the unit of {@code timeout}.
     * @return true if it was applied, false on time-out.
     * @throws PipelineFailedException if the pipeline failed meanwhile.
     * @throws InterruptedException    if interrupted while waiting.
     */
    public boolean awaitOffset(final long offset, final long timeout, final TimeUnit unit) throws InterruptedException
    {
        final long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (completion.lastOffset() < offset)
        {
            if (completion.failure() != null)
            {
                throw new PipelineFailedException("pipeline over " + directory + " failed: " + completion.failure(), completion.failure());
            }
            if (System.nanoTime() >= deadline)
            {
                return false;
            }
            Thread.sleep(1);
        }
        return true;
    }

    /**
     * Same as {@link #stop()}; also closes the journal opened by {@link #append(long, long, String, long)},
     * if any (a pipeline that never started too).
     */
    @Override
    public void close()
    {
        try
        {
            stop();
        }
        finally
        {
            closeProducer();
        }
    }

    private void closeProducer()
    {
        if (producer != null)
        {
            producer.close();
            producer = null;
        }
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

    /**
     * @return the checkpoint this run resumed from, or null if it started from the beginning.
     */
    public Checkpoint restoredFrom()
    {
        return restored;
    }

    /**
     * For an in-process producer: append an event to the journal this pipeline reads (a following
     * pipeline then processes it). The same as {@link EventJournal#append(long, long, String, long)} on the
     * journal, opened on first use and closed with the pipeline: call it from one thread (the journal has
     * one appending thread), and close the pipeline from that thread or once it has stopped appending.
     *
     * @param eventId   the event's id.
     * @param eventTime its time, epoch ms.
     * @param key       its key; allocates only the first time a key is seen.
     * @param value     its value.
     * @return the event's offset.
     */
    public long append(final long eventId, final long eventTime, final String key, final long value)
    {
        return producer().append(eventId, eventTime, key, value);
    }

    /**
     * For an in-process producer: append an event with a key id from {@link #keyId(String)}; allocates
     * nothing. Same threading as {@link #append(long, long, String, long)}.
     *
     * @param eventId   the event's id.
     * @param eventTime its time, epoch ms.
     * @param keyId     its key's id.
     * @param value     its value.
     * @return the event's offset.
     */
    public long append(final long eventId, final long eventTime, final int keyId, final long value)
    {
        return producer().append(eventId, eventTime, keyId, value);
    }

    /**
     * @param key a key.
     * @return its id in the journal, defined (with an event of that key) the first time it is appended.
     */
    public int keyId(final String key)
    {
        return producer().keyId(key);
    }

    private EventJournal producer()
    {
        if (producer == null)
        {
            if (closed)
            {
                throw new IllegalStateException("the pipeline is closed");
            }
            producer = EventJournal.open(directory);
        }
        return producer;
    }

    private void begin(final boolean follow)
    {
        if (started)
        {
            throw new IllegalStateException("a pipeline runs once");
        }
        started = true;
        startedNanos = System.nanoTime();
        final ResultListener results = config.results != null ? config.results : r -> { };
        final WindowAssigner assigner = operators.newAssigner();
        // the output journal's single-appender lock first: a pipeline refused because another process writes
        // its outputs has opened nothing else
        final OutputJournal outputs = config.durableOutput ? OutputJournal.openForAppend(directory) : null;
        reader = JournalReader.open(directory);
        firstOffset = reader.firstOffset();
        if (config.durableOutput)
        {
            final CheckpointStore store = new CheckpointStore(directory.checkpoints(), 3);
            final CheckpointStore.Loaded loaded = store.loadNewestValid();
            final OutputSinkHolder holder = new OutputSinkHolder();
            aggregator = operators.newAggregator(holder, holder);
            long resumeAfterOutput = OutputJournal.NONE;
            if (loaded != null)
            {
                restored = Checkpointer.restore(loaded, configuration(), aggregator);
                eventsAtStart = aggregator.counters().events();
                assigner.restoreWatermark(aggregator.watermark());
                resumeAfterOutput = restored.outputPosition();
                if (restored.sourceOffset() >= 0)
                {
                    reader.seekAfter(restored.sourceOffset());
                    firstOffset = restored.sourceOffset();
                }
            }
            sink = new OutputJournalSink(outputs, resumeAfterOutput, results, config.late, config.aggregation != null);
            holder.sink = sink;
            checkpointer = new Checkpointer(
                store, configuration(), config.checkpointInterval, aggregator, sink, reader, config.syncOnCheckpoint, restored);
            checkpointer.onWriteFailure(completion::fail); // a following run with no new events learns of it too
            if (restored != null && restored.endPending())
            {
                // the run that wrote this checkpoint died while applying the end of its input: apply it
                // now, before any event appended since, so it reproduces the results already written
                final EventSlot end = new EventSlot();
                end.endOfInput(restored.sourceOffset());
                assigner.assign(end);
                aggregator.apply(end);
                checkpointer.take(Checkpointer.FINISHED);
                sink.handOff();
            }
        }
        else
        {
            aggregator = operators.newAggregator(results, config.late);
            if (config.fromOffset >= 0)
            {
                reader.seek(config.fromOffset);
                firstOffset = config.fromOffset;
            }
        }
        final IdleStrategy idle = config.publisherIdle != null ? config.publisherIdle.get() : JournalPublisher.defaultIdle();
        // a following pipeline runs inline unless a consumer wait strategy was chosen (inline has none)
        final PipelineLayout layout = config.layout != null ? config.layout
            : follow && config.waitStrategy == null ? PipelineLayout.INLINE : PipelineLayout.FUSED;
        final InlineJournalWaitStrategy inline = layout == PipelineLayout.INLINE ? new InlineJournalWaitStrategy(idle, completion) : null;
        final WaitStrategy wait = inline != null ? inline
            : config.waitStrategy != null ? config.waitStrategy.get()
            : follow ? new SleepingWaitStrategy() : new YieldingWaitStrategy();
        disruptor = new Disruptor<>(EventSlot::new, config.ringSize, stageThreads, ProducerType.SINGLE, wait);
        disruptor.setDefaultExceptionHandler(new FailRun(completion));
        final Runnable publishCounters;
        EngineCounters engineCounters = null;
        if (config.durableOutput)
        {
            metrics = MetricsFile.create(directory.metricsFile(), EngineCounters.COUNT);
            final EngineCounters counters = new EngineCounters(metrics.counters());
            engineCounters = counters;
            final EngineCounters.Source source = new Gauges(aggregator, checkpointer, sink);
            publishCounters = () -> counters.publish(source);
            publishCounters.run();
        }
        else
        {
            publishCounters = null;
        }
        final LastStage last = new LastStage(aggregator, checkpointer, completion, config.applied, publishCounters);
        if (layout == PipelineLayout.STAGED)
        {
            disruptor.handleEventsWith(new AssignHandler(assigner)).then(new AggregateHandler(last));
        }
        else
        {
            disruptor.handleEventsWith(new FusedHandler(assigner, last));
        }
        reader.handOff();
        publisher = new JournalPublisher(reader, disruptor.getRingBuffer(), completion, follow, config.toOffset, idle);
        if (engineCounters != null)
        {
            publisher.countRejectedLines(engineCounters.rejectedLines());
        }
        if (inline != null)
        {
            inline.drive(publisher);
            disruptor.start();
        }
        else
        {
            disruptor.start();
            publisherThread = new Thread(publisher, "weir-publisher");
            publisherThread.setDaemon(true);
            publisherThread.start();
        }
    }

    private void awaitCompletion()
    {
        try
        {
            while (!completion.await(POLL_MS, TimeUnit.MILLISECONDS))
            {
                if ((publisherThread == null || !publisherThread.isAlive()) && completion.failure() != null)
                {
                    break;
                }
            }
            if (completion.failure() != null)
            {
                publisher.stop(); // a failed stage consumes nothing more: do not wait for a full ring to drain
            }
            if (publisherThread != null)
            {
                publisherThread.join(TimeUnit.SECONDS.toMillis(10));
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            completion.fail(ex);
            publisher.stop();
        }
    }

    private RunSummary finish()
    {
        if (closed)
        {
            return summary;
        }
        closed = true;
        disruptor.halt();
        stageThreads.join(TimeUnit.SECONDS.toMillis(10)); // nothing below is closed under a stage still running
        if (checkpointer != null)
        {
            try
            {
                checkpointer.close();
            }
            catch (final RuntimeException ex)
            {
                completion.fail(ex);
            }
        }
        reader.handOff();
        reader.close();
        if (sink != null)
        {
            sink.close();
        }
        if (metrics != null)
        {
            metrics.close(); // the file stays, with the last values
        }
        closeProducer();
        if (completion.failure() != null)
        {
            throw new PipelineFailedException("pipeline over " + directory + " failed: " + completion.failure(), completion.failure());
        }
        final OperatorCounters c = aggregator.counters();
        final long lastOffset = completion.lastOffset() >= 0 ? completion.lastOffset() : restored == null ? -1 : restored.sourceOffset();
        summary = new RunSummary(
            c.events(), c.events() - eventsAtStart, c.dropped(), c.sideOutput(), c.ignored(), c.windowsFired(), c.windowsOpened(),
            c.duplicates(), firstOffset, lastOffset, System.nanoTime() - startedNanos,
            restored == null ? -1 : restored.sourceOffset(),
            sink == null ? 0 : sink.suppressed(),
            checkpointer == null ? 0 : checkpointer.taken(),
            checkpointer == null ? 0 : checkpointer.maxPauseNanos(),
            checkpointer == null ? 0 : checkpointer.meanPauseNanos());
        return summary;
    }

    /**
     * @return the configuration string that a checkpoint must match to be resumed.
     */
    String configuration()
    {
        return operators.describe();
    }

    /** The live counters' values, read on the engine's last-stage thread. */
    private static final class Gauges implements EngineCounters.Source
    {
        private final WindowAggregator aggregator;
        private final OperatorCounters counters;
        private final Checkpointer checkpointer;
        private final OutputJournalSink sink;

        Gauges(final WindowAggregator aggregator, final Checkpointer checkpointer, final OutputJournalSink sink)
        {
            this.aggregator = aggregator;
            this.counters = aggregator.counters();
            this.checkpointer = checkpointer;
            this.sink = sink;
        }

        @Override
        public long events()
        {
            return counters.events();
        }

        @Override
        public long dropped()
        {
            return counters.dropped();
        }

        @Override
        public long sideOutput()
        {
            return counters.sideOutput();
        }

        @Override
        public long ignored()
        {
            return counters.ignored();
        }

        @Override
        public long duplicates()
        {
            return counters.duplicates();
        }

        @Override
        public long windowsOpen()
        {
            return aggregator.openWindows();
        }

        @Override
        public long windowsFired()
        {
            return counters.windowsFired();
        }

        @Override
        public long watermark()
        {
            return aggregator.watermark();
        }

        @Override
        public long offset()
        {
            return aggregator.lastOffset();
        }

        @Override
        public long checkpointOffset()
        {
            return checkpointer.checkpointOffset();
        }

        @Override
        public long checkpoints()
        {
            return checkpointer.taken();
        }

        @Override
        public long outputs()
        {
            return sink.appended();
        }
    }

    /** Lets the aggregator reach a sink created after it; completion is forwarded once, from the results side. */
    private static final class OutputSinkHolder implements ResultListener, LateListener
    {
        OutputJournalSink sink;

        @Override
        public void onResult(final dev.weir.engine.emit.WindowResult result)
        {
            sink.onResult(result);
        }

        @Override
        public void onLate(final dev.weir.engine.emit.LateEvent event)
        {
            sink.onLate(event);
        }

        @Override
        public void onComplete()
        {
            sink.onComplete();
        }
    }

    /**
     * Makes the stage threads, and remembers them so a finishing pipeline can wait for them to end. A stage
     * thread ends on its failure, which is the run's: it is recorded, not printed by the JVM.
     */
    private static final class StageThreads implements ThreadFactory
    {
        private final AtomicInteger next = new AtomicInteger();
        private final List<Thread> threads = new CopyOnWriteArrayList<>();
        private final RunCompletion completion;

        StageThreads(final RunCompletion completion)
        {
            this.completion = completion;
        }

        @Override
        public Thread newThread(final Runnable task)
        {
            final Thread thread = new Thread(task, "weir-stage-" + next.getAndIncrement());
            thread.setDaemon(true);
            thread.setUncaughtExceptionHandler((t, ex) -> completion.fail(ex));
            threads.add(thread);
            return thread;
        }

        void join(final long millis)
        {
            try
            {
                for (final Thread thread : threads)
                {
                    if (thread != Thread.currentThread())
                    {
                        thread.join(millis);
                    }
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
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
