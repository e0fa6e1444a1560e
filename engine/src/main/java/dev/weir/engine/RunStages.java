package dev.weir.engine;

import dev.weir.engine.checkpoint.Checkpointer;
import dev.weir.engine.emit.KeyText;
import dev.weir.engine.emit.OutputJournalSink;
import dev.weir.engine.metrics.EngineCounters;
import dev.weir.engine.metrics.LatencySampler;
import dev.weir.engine.metrics.MetricsFile;
import dev.weir.engine.metrics.PipelineMetrics;
import dev.weir.engine.metrics.RetentionCounters;
import dev.weir.engine.metrics.RunCounters;
import dev.weir.engine.metrics.RunLatencies;
import dev.weir.engine.operator.WindowAggregator;
import dev.weir.engine.operator.WindowAssigner;
import dev.weir.engine.source.EventSlot;
import dev.weir.engine.stage.LastStage;
import dev.weir.engine.stage.RunCompletion;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.KeyTuples;
import dev.weir.journal.OutputJournal;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The stages of one run and the files they hold, built in the order recovery needs: the output
 * journal's single-appender lock first (a run refused because another process writes its outputs opens
 * nothing else), the reader, the output sink (it must know where the checkpoint's outputs end before
 * anything is emitted), the aggregator writing into it with the checkpoint's state restored, the
 * checkpointer, the live metrics (in the metrics file, or in memory for a replay, which writes no file), the
 * latency histograms and their sampler thread, and the last stage over them. {@link #close()} releases them in
 * reverse, once the stage threads have ended.
 * <p>
 * Not thread-safe: built and closed by the thread that starts the run; between the two, the stages
 * belong to the stage threads.
 */
final class RunStages
{
    private final JournalReader reader;
    /** The counters of the run's retention, or null without one. */
    private final RetentionCounters retentionCounters;
    private final WindowAssigner assigner;
    private final WindowAggregator aggregator;
    private final OutputJournalSink sink;
    private final Checkpointer checkpointer;
    private final MetricsFile metrics;
    private final EngineCounters engineCounters;
    private final RunCounters counters;
    private final RunLatencies latencies = new RunLatencies();
    private final LatencySampler sampler;
    private final PipelineMetrics view;
    private final LastStage last;
    private final KeyTuples keyTuples;
    private final long firstUnread;
    /** The results' key text, opened on the last stage's thread at its first use. */
    private final KeyText keyText;

    RunStages(final PipelineConfiguration config, final Recovery recovery, final RunCompletion completion, final PipelineThreads threads)
    {
        final JournalDirectory directory = config.directory();
        final OutputJournal outputs = config.durableOutput() ? OutputJournal.openForAppend(directory) : null;
        keyText = KeyText.open(directory, config.projection());
        reader = JournalReader.open(directory);
        long firstOffset = reader.firstOffset();
        assigner = config.newAssigner();
        if (config.durableOutput())
        {
            sink = new OutputJournalSink(outputs, recovery.resumeAfterOutput(), config.results(), config.late(), config.resultAggregates());
            if (recovery.rebuilt() != null)
            {
                sink.verifyEachEventInAnyOrder(); // the older Weir fired the windows of one start in another order
            }
            aggregator = config.newAggregator(sink, sink, keyText);
            recovery.restoreInto(aggregator);
            assigner.restoreWatermark(aggregator.watermark());
            if (recovery.resumeAfterOffset() >= 0)
            {
                reader.seekAfter(recovery.resumeAfterOffset());
                firstOffset = recovery.resumeAfterOffset();
            }
            checkpointer = new Checkpointer(config.checkpointStore(), config.describe(), config.checkpointInterval(), aggregator, sink,
                reader, config.syncOnCheckpoint(), recovery.checkpoint(), threads.agents("checkpoint", completion::fail));
            checkpointer.onWriteFailure(completion::fail); // a following run with no new events learns of it too
            checkpointer.onWritten(config.checkpointListener());
            if (config.checkpointEachHeartbeat())
            {
                checkpointer.checkpointEachHeartbeat();
            }
            if (recovery.endPending())
            {
                applyPendingEnd(recovery.resumeAfterOffset());
            }
            metrics = MetricsFile.create(directory.metricsFile(), EngineCounters.COUNT + RetentionCounters.COUNT);
        }
        else
        {
            sink = null;
            checkpointer = null;
            metrics = MetricsFile.inMemory(EngineCounters.COUNT); // the in-process view only

            aggregator = config.newAggregator(config.results(), config.late(), keyText);
            if (config.fromOffset() >= 0)
            {
                reader.seek(config.fromOffset());
                firstOffset = config.fromOffset();
            }
        }
        firstUnread = firstUnread(config, recovery);
        keyTuples = config.projection().keysByTuple()
            ? KeyTuples.readBefore(directory, config.projection().keyColumns(), firstUnread)
            : null;
        engineCounters = new EngineCounters(metrics.counters());
        retentionCounters = config.retentionMillis() >= 0 ? new RetentionCounters(metrics.counters()) : null;
        view = new PipelineMetrics(metrics.reader(), directory.pipelineName(), directory.root());
        counters = new RunCounters(aggregator, checkpointer, sink, firstOffset, recovery.resumeAfterOffset());
        final OutputJournalSink flushed = sink;
        final Runnable publish = flushed == null ? () -> engineCounters.publish(counters) : () ->
        {
            flushed.flush(); // the end of a batch of events: the outputs held for the next document are written now
            engineCounters.publish(counters);
        };
        publish.run();
        aggregator.timeFirings(latencies.fireToListener());
        last = new LastStage(aggregator, checkpointer, completion, config.applied(), publish, latencies.readToApplied());
        sampler = new LatencySampler(latencies, engineCounters, threads.agents("metrics", completion::fail));
        sampler.start();
    }

    /**
     * The run that wrote the checkpoint died while applying the end of its input: apply it now, before any
     * event appended since, so it reproduces the results already written.
     */
    private void applyPendingEnd(final long offset)
    {
        final EventSlot end = new EventSlot();
        end.endOfInput(offset);
        assigner.assign(end);
        aggregator.apply(end);
        checkpointer.take(Checkpointer.FINISHED);
        sink.handOff();
    }

    /**
     * @return the offset before which the run reads no event: after the checkpoint's, at {@code --from}, or
     *         the journal's start.
     */
    private static long firstUnread(final PipelineConfiguration config, final Recovery recovery)
    {
        if (config.durableOutput())
        {
            return recovery.resumeAfterOffset() >= 0 ? recovery.resumeAfterOffset() + 1 : Long.MIN_VALUE;
        }
        return config.fromOffset() >= 0 ? config.fromOffset() : Long.MIN_VALUE;
    }

    /** @return the first offset the run reads: after the checkpoint's, at {@code --from}, or {@link Long#MIN_VALUE} for the journal's start. */
    long firstUnread()
    {
        return firstUnread;
    }

    /** @return the key tuples of the events before the run's first, for the publisher; null if keys are dictionary ids. */
    KeyTuples keyTuples()
    {
        return keyTuples;
    }

    /** @return the counters of the run's retention (in its metrics file), or null if it has none. */
    RetentionCounters retentionCounters()
    {
        return retentionCounters;
    }

    JournalReader reader()
    {
        return reader;
    }

    WindowAssigner assigner()
    {
        return assigner;
    }

    LastStage lastStage()
    {
        return last;
    }

    RunCounters counters()
    {
        return counters;
    }

    /** @return the run's counters and latency histograms, to read from any thread. */
    PipelineMetrics metrics()
    {
        return view;
    }

    /**
     * @return the live counter of rejected lines read.
     */
    AtomicCounter rejectedLines()
    {
        return engineCounters.rejectedLines();
    }

    /**
     * @return the live counters of the wall clock of the last event read and of the last heartbeat read.
     */
    AtomicCounter[] readClocks()
    {
        return new AtomicCounter[] {engineCounters.lastEventRead(), engineCounters.lastHeartbeatRead()};
    }

    /**
     * Take the final checkpoint (a failure is the run's) and release the reader, the output journal and
     * the metrics file (which stays, with its last values).
     *
     * @param completion the run's completion, told of a failure to close.
     */
    void close(final RunCompletion completion)
    {
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
        keyText.handOff(); // the last stage's thread has ended
        keyText.close();
        if (sink != null)
        {
            sink.close();
        }
        sampler.close(); // publishes the histograms' final values
        metrics.markEnded();
        metrics.close();
    }
}
