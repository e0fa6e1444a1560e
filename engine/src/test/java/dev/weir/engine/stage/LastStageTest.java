package dev.weir.engine.stage;

import dev.weir.engine.source.JournalRing;
import dev.weir.engine.source.EventSlot;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;

import dev.weir.engine.checkpoint.Checkpoint;
import dev.weir.engine.checkpoint.CheckpointStore;
import dev.weir.engine.checkpoint.CheckpointCodec;
import dev.weir.engine.checkpoint.Checkpointer;
import dev.weir.engine.emit.LateListener;
import dev.weir.engine.emit.OutputJournalSink;
import dev.weir.engine.operator.OperatorConfiguration;
import dev.weir.engine.operator.WindowAggregator;
import dev.weir.engine.operator.WindowAssigner;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.JournalReader;
import dev.weir.journal.OutputJournal;
import org.HdrHistogram.Recorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The last stage's contract for each kind of slot, with a real aggregator (tumbling windows of 10 ms, no
 * out-of-orderness or lateness) and, where it checkpoints, a real checkpointer, store and output journal:
 * an event is applied and reported to the applied listener, while progress and the after-batch hook come
 * only at the end of a batch; the end of input fires every window, checkpoints as finished and completes
 * the run; a stop completes it without firing, checkpointing as running.
 */
class LastStageTest
{
    @TempDir
    Path dir;

    private final List<String> results = new ArrayList<>();
    private final List<Long> applied = new ArrayList<>();
    private final RunCompletion completion = new RunCompletion();
    private final OperatorConfiguration configuration = OperatorConfiguration.builder(TumblingWindows.of(10)).build();
    private final WindowAssigner assigner = configuration.newAssigner();
    private final WindowAggregator aggregator = configuration.newAggregator(
        r -> results.add(r.windowStart() + "," + r.windowEnd() + "," + r.count() + "," + r.sum()), LateListener.NONE);
    private final EventSlot slot = new EventSlot();
    private int afterBatch;

    private void event(final LastStage stage, final long offset, final long time, final boolean endOfBatch)
    {
        slot.event(offset, offset, time, 0, time);
        assigner.assign(slot);
        stage.onSlot(slot, offset, endOfBatch);
    }

    @Test
    void anEventIsAppliedAndProgressIsReportedOnlyAtTheEndOfABatch() throws Exception
    {
        final LastStage stage = new LastStage(aggregator, null, completion, applied::add, () -> afterBatch++);
        event(stage, 0, 1, false);
        event(stage, 1, 2, false);
        assertEquals(List.of(0L, 1L), applied);
        assertEquals(0, afterBatch, "not at the end of a batch");
        assertEquals(0, completion.processed());
        assertEquals(-1, completion.lastOffset());
        event(stage, 2, 15, true);
        assertEquals(List.of("0,10,2,3"), results, "the watermark passed 10: the first window fired");
        assertEquals(1, afterBatch);
        assertEquals(2, completion.lastOffset());
        assertEquals(3, completion.processed());
        assertFalse(completion.await(0, TimeUnit.SECONDS), "not complete before the end");

        slot.endOfInput(2);
        assigner.assign(slot);
        stage.onSlot(slot, 3, true);
        assertEquals(List.of("0,10,2,3", "10,20,1,15"), results, "the end of input fired the rest");
        assertEquals(2, afterBatch);
        assertEquals(4, completion.processed());
        assertTrue(completion.await(0, TimeUnit.SECONDS));
        assertNull(completion.failure());
    }

    @Test
    void aBatchEndingWithTheEndOfInputRecordsItsReadToAppliedTime()
    {
        final Recorder readToApplied = new Recorder(2);
        final LastStage stage = new LastStage(aggregator, null, completion, null, null, readToApplied);
        for (int i = 0; i < 3; i++)
        {
            slot.event(i, i, i, 0, i);
            slot.readNanos = System.nanoTime();
            assigner.assign(slot);
            stage.onSlot(slot, i, false);
        }
        assertEquals(0, readToApplied.getIntervalHistogram().getTotalCount(), "no batch has ended yet");
        slot.endOfInput(2);
        assigner.assign(slot);
        stage.onSlot(slot, 3, true);
        assertEquals(1, readToApplied.getIntervalHistogram().getTotalCount(), "the events' batch ended with the end marker");
    }

    @Test
    void aStopCompletesTheRunWithoutFiring() throws Exception
    {
        final LastStage stage = new LastStage(aggregator, null, completion, null, null);
        event(stage, 0, 1, true);
        slot.stop();
        stage.onSlot(slot, 1, true);
        assertEquals(List.of(), results, "a stop is not the end of the input: nothing fires");
        assertTrue(completion.await(0, TimeUnit.SECONDS));
    }

    @Test
    void theEndOfInputIsCheckpointedAsFinished() throws Exception
    {
        final Checkpoint ended = checkpointAfter(false);
        assertTrue(ended.finished());
        assertFalse(ended.endPending());
    }

    @Test
    void aStopIsCheckpointedAsRunning() throws Exception
    {
        final Checkpoint stopped = checkpointAfter(true);
        assertFalse(stopped.finished());
        assertFalse(stopped.endPending());
    }

    private Checkpoint checkpointAfter(final boolean stop) throws Exception
    {
        final Path run = dir.resolve(stop ? "stopped" : "ended");
        try (JournalRing journal = new JournalRing(run.resolve("journal")))
        {
            journal.append(3);
            final CheckpointStore store = new CheckpointStore(run.resolve("checkpoints"), 3);
            final OutputJournalSink sink = new OutputJournalSink(OutputJournal.open(journal.journal.directory()), OutputJournal.NONE,
                r -> { }, LateListener.NONE, false);
            try (JournalReader events = journal.reader())
            {
                final Checkpointer checkpointer = new Checkpointer(store, "test", 0, aggregator, sink, events, false, null, LastStageTest::writerThread);
                final LastStage stage = new LastStage(aggregator, checkpointer, new RunCompletion(), null, null);
                event(stage, 0, 1, false);
                event(stage, 1, 2, false);
                event(stage, 2, 15, true);
                assertEquals(null, store.loadNewestValid(), "no interval: no checkpoint while running");
                if (stop)
                {
                    slot.stop();
                }
                else
                {
                    slot.endOfInput(2);
                    assigner.assign(slot);
                }
                stage.onSlot(slot, 3, true);
                checkpointer.close();
            }
            sink.close();
            final Checkpoint checkpoint = CheckpointCodec.describe(store.loadNewestValid());
            assertEquals(2, checkpoint.sourceOffset());
            assertEquals(3, checkpoint.applied());
            return checkpoint;
        }
    }

    /** Starts a checkpoint writer's agent on a plain thread. */
    private static AgentRunner writerThread(final Agent agent, final IdleStrategy idle)
    {
        final AgentRunner runner = new AgentRunner(idle, Throwable::printStackTrace, null, agent);
        AgentRunner.startOnThread(runner);
        return runner;
    }
}
