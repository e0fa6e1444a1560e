package dev.weir.engine;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import com.lmax.disruptor.BusySpinWaitStrategy;
import com.lmax.disruptor.EventPoller;
import com.lmax.disruptor.ExceptionHandler;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import dev.weir.engine.expr.DictionaryTexts;
import dev.weir.engine.expr.EventFilter;
import dev.weir.engine.join.JoinedTexts;
import dev.weir.engine.join.JoinSnapshots;
import dev.weir.engine.join.TableJoins;
import dev.weir.engine.operator.WindowAssigner;
import dev.weir.engine.source.EventSlot;
import dev.weir.engine.source.InlineJournalWaitStrategy;
import dev.weir.engine.source.JournalPublisher;
import dev.weir.engine.stage.AggregateHandler;
import dev.weir.engine.stage.AssignHandler;
import dev.weir.engine.stage.FusedHandler;
import dev.weir.engine.stage.LastStage;
import dev.weir.engine.stage.RunCompletion;
import dev.weir.journal.HistoryBase;
import dev.weir.journal.JournalReader;
import dev.weir.journal.KeyTuples;
import dev.weir.journal.StringDictionaries;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The threads of one run and what connects them: the Disruptor ring of pre-allocated {@link EventSlot}s
 * in the chosen {@link PipelineLayout}, its stage threads, the failure handler that ends the run on a
 * stage's exception, and the publisher that reads the journal into the ring, on a thread of its own or,
 * inline, on the stage thread whenever it has processed every slot.
 * <p>
 * Polled (no {@link PipelineThreads}): no thread at all. The ring has one {@link EventPoller} as its only
 * consumer, and the caller's thread does the inline layout's work in {@link #poll()}: a step of the
 * publisher, then both stages over every slot available (the same {@link FusedHandler} and
 * {@link LastStage}), for {@link PipelineAgent}.
 * <p>
 * Not thread-safe: the thread that starts the run owns it (a polled run: the thread that polls it). The
 * threads are made by {@link PipelineThreads}; a failure on any of them is recorded in the run's
 * {@link RunCompletion}, never printed by the JVM.
 */
final class Wiring
{
    private static final long POLL_MS = 50;
    private static final long JOIN_MS = TimeUnit.SECONDS.toMillis(10);
    /**
     * The system property that lowers the fewest documents between two join-state files below
     * {@link JoinSnapshots#MIN_EVERY}, for tests that cross the cadence with a small journal.
     */
    static final String JOIN_STATE_EVERY = "weir.test.joinStateEvery";

    private final RunCompletion completion;
    private final PipelineThreads threads;
    private final Disruptor<EventSlot> disruptor;
    private final EventPoller<EventSlot> poller;
    private final PolledSlots polled;
    private final JournalPublisher publisher;
    private final InlineJournalWaitStrategy inline;
    private Thread publisherThread;
    /**
     * The dictionaries a text filter, the joins or named aggregates resolve string literals in, owned by the publisher's
     * thread; or null.
     */
    private final StringDictionaries filterStrings;
    /** The joins' state, owned by the publisher, or null without joins. */
    private final TableJoins joins;
    /** Where the joins' state is written, or null. */
    private final JoinSnapshots snapshots;

    /**
     * Build the ring and its stages; nothing runs until {@link #start()}.
     *
     * @param config        the concluded configuration.
     * @param follow        true to follow the journal for new events.
     * @param completion    the run's completion.
     * @param threads       makes the run's threads; null for a polled run (the inline layout, on the caller's thread).
     * @param reader        the journal reader, positioned where the run resumes; handed to the publisher.
     * @param assigner      the first stage.
     * @param last          the last stage.
     * @param rejectedLines where the publisher counts rejected lines it reads, or null.
     * @param readClocks    where the publisher notes the wall clock of its last event and last heartbeat read, or null.
     * @param keys          the key tuples before the reader's position, handed to the publisher; or null.
     * @param firstUnread   the first offset the run reads: the joins' state is rebuilt from the documents before it.
     */
    Wiring(
        final PipelineConfiguration config,
        final boolean follow,
        final RunCompletion completion,
        final PipelineThreads threads,
        final JournalReader reader,
        final WindowAssigner assigner,
        final LastStage last,
        final AtomicCounter rejectedLines,
        final AtomicCounter[] readClocks,
        final KeyTuples keys,
        final long firstUnread)
    {
        this.completion = completion;
        this.threads = threads;
        final IdleStrategy idle = config.publisherIdle();
        final int slotColumns = config.slotColumns();
        final int slotInputs = config.slotInputs();
        final RingBuffer<EventSlot> ring;
        if (threads == null)
        {
            this.inline = null;
            this.disruptor = null;
            // no consumer ever waits on the ring: the producer's signal must cost nothing
            ring = RingBuffer.createSingleProducer(() -> new EventSlot(slotColumns, slotInputs), config.ringSize(), new BusySpinWaitStrategy());
            this.poller = ring.newPoller();
            ring.addGatingSequences(poller.getSequence());
            this.polled = new PolledSlots(new FusedHandler(assigner, last));
        }
        else
        {
            this.poller = null;
            this.polled = null;
            final PipelineLayout layout = config.layout(follow);
            this.inline = layout == PipelineLayout.INLINE ? new InlineJournalWaitStrategy(idle, completion) : null;
            final WaitStrategy wait = inline != null ? inline : config.waitStrategy(follow);
            this.disruptor = new Disruptor<>(() -> new EventSlot(slotColumns, slotInputs), config.ringSize(), threads.stages(), ProducerType.SINGLE, wait);
            disruptor.setDefaultExceptionHandler(new FailRun(completion));
            if (layout == PipelineLayout.STAGED)
            {
                disruptor.handleEventsWith(new AssignHandler(assigner)).then(new AggregateHandler(last));
            }
            else
            {
                disruptor.handleEventsWith(new FusedHandler(assigner, last));
            }
            ring = disruptor.getRingBuffer();
        }
        reader.handOff();
        this.publisher = new JournalPublisher(reader, ring, completion, follow, config.toOffset(), idle,
            config.projection(), keys);
        if (rejectedLines != null)
        {
            publisher.countRejectedLines(rejectedLines);
        }
        if (readClocks != null)
        {
            publisher.noteReadClocks(readClocks[0], readClocks[1]);
        }
        final boolean joined = !config.joins().isEmpty();
        final boolean named = config.namedAggregates() != null;
        final StringDictionaries strings = config.filtersByText() || joined || named ? StringDictionaries.open(config.directory()) : null;
        this.filterStrings = strings;
        final JoinedTexts joinedTexts;
        if (joined)
        {
            final DictionaryTexts eventTexts = new DictionaryTexts(strings);
            // the events of removed cycles were read by the run that removed them: their greatest time counts
            final long removedTime = HistoryBase.read(config.directory()).map(HistoryBase.Summary::maxRemovedEventTime).orElse(-1L);
            final Supplier<TableJoins> newJoins = () ->
            {
                final TableJoins fresh = config.newJoins(eventTexts);
                if (removedTime != -1)
                {
                    fresh.horizon().read(removedTime);
                }
                return fresh;
            };
            final TableJoins joins;
            if (config.durableOutput())
            {
                final JoinSnapshots snapshots = new JoinSnapshots(config.directory().pipelineRoot().resolve("join-state"),
                    config.joinConfiguration(), Long.getLong(JOIN_STATE_EVERY, JoinSnapshots.MIN_EVERY),
                    2 * (config.checkpointInterval() + config.ringSize())); // how far the newest checkpoint may lag

                joins = snapshots.restore(newJoins, config.directory(), firstUnread);
                joins.snapshotTo(snapshots);
                this.snapshots = snapshots;
            }
            else
            {
                this.snapshots = null;
                joins = newJoins.get();
                joins.readBefore(config.directory(), firstUnread); // the rows and times before the run, as a run from the start left them
            }
            this.joins = joins;
            publisher.join(config.projection(), joins, config.stringColumns());
            joinedTexts = new JoinedTexts(eventTexts, joins.view());
        }
        else
        {
            joinedTexts = null;
            this.joins = null;
            this.snapshots = null;
        }
        if (slotColumns > 0)
        {
            publisher.copyColumns(config.projection(), config.copiedColumns());
        }
        final EventFilter filter;
        if (joined)
        {
            filter = config.newJoinedFilter(joinedTexts);
        }
        else
        {
            filter = config.newFilter(strings == null ? null : new DictionaryTexts(strings));
        }
        if (named)
        {
            publisher.aggregateInputs(config.projection(), config.newAggregateInputs(joined ? joinedTexts : new DictionaryTexts(strings)));
        }
        if (filter != null)
        {
            publisher.filter(config.projection(), filter);
        }
        if (filterStrings != null)
        {
            publisher.onNewCycle(filterStrings::releasePassedCycles); // keeps no cycle retention deleted
            filterStrings.handOff(); // to the publisher's thread
        }
    }

    /** @return the journal documents read to restore the joins' state before the run (after a join-state file, if one was loaded). */
    long joinDocumentsScanned()
    {
        return joins == null ? 0 : joins.scanned();
    }

    /** Start the stage threads and the publisher. */
    void start()
    {
        if (inline != null)
        {
            inline.drive(publisher);
            disruptor.start();
        }
        else
        {
            disruptor.start();
            publisherThread = threads.publisher(publisher);
            publisherThread.start();
        }
    }

    /**
     * A polled run's unit of work, on the thread that owns it: one step of the publisher (up to a batch read
     * from the journal into the ring, or the end or stop marker), then both stages over every slot available.
     * A failure is the run's, recorded in its completion, not thrown.
     *
     * @return the journal documents published plus the slots applied; 0 when there was nothing to do or the
     *         run has ended.
     */
    int poll()
    {
        assert poller != null : "a polled run";
        if (completion.ended())
        {
            return 0;
        }
        try
        {
            final int published = publisher.step();
            polled.applied = 0;
            poller.poll(polled);
            return Math.max(0, published) + polled.applied;
        }
        catch (final Throwable ex)
        {
            completion.fail(ex);
            publisher.stop();
            return 0;
        }
    }

    /** Ask the publisher to stop: it publishes the end of a following run once it has published what it read. */
    void stopPublishing()
    {
        publisher.stop();
    }

    /** Wait until the run has ended (completed, or failed and its publisher has stopped). */
    void awaitCompletion()
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
                publisherThread.join(JOIN_MS);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            completion.fail(ex);
            publisher.stop();
        }
    }

    /** Halt the ring and wait for the stage threads to end, so nothing is closed under a running stage. */
    void halt()
    {
        if (disruptor != null)
        {
            disruptor.halt();
            threads.joinStages(JOIN_MS);
        }
        if (filterStrings != null)
        {
            filterStrings.close();
        }
        if (snapshots != null)
        {
            snapshots.close(); // after the publisher: no file is handed to its thread any more
        }
    }

    /** Applies the slots a polled run finds in the ring, through both stages, counting them. */
    private static final class PolledSlots implements EventPoller.Handler<EventSlot>
    {
        private final FusedHandler stages;
        int applied;

        PolledSlots(final FusedHandler stages)
        {
            this.stages = stages;
        }

        @Override
        public boolean onEvent(final EventSlot slot, final long sequence, final boolean endOfBatch)
        {
            stages.onEvent(slot, sequence, endOfBatch);
            applied++;
            return true;
        }
    }

    /** A stage's exception fails the run and ends that stage's thread. */
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
