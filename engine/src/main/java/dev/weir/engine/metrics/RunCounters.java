package dev.weir.engine.metrics;

import dev.weir.engine.checkpoint.Checkpointer;
import dev.weir.engine.emit.OutputJournalSink;
import dev.weir.engine.operator.OperatorCounters;
import dev.weir.engine.operator.WindowAggregator;

/**
 * The counters of one run, in one place: the window operator's counts (checkpointed with its state, so
 * they cover the journal from its start), its gauges (open windows, watermark, offset), the
 * checkpointer's and the output sink's counts, and where this run started. The live metrics file
 * ({@link EngineCounters#publish(RunCounters)}) and the run's final summary are the two views of it.
 * <p>
 * It reads the stages' own fields: call it on the last stage's thread while the run is live, or from the
 * thread that started the run once the stages have stopped.
 */
public final class RunCounters
{
    private final WindowAggregator aggregator;
    private final OperatorCounters operator;
    private final Checkpointer checkpointer;
    private final OutputJournalSink sink;
    private final long eventsAtStart;
    private final long lateAtStart;
    private final long firstOffset;
    private final long resumedAfterOffset;

    /**
     * @param aggregator         the run's window operator.
     * @param checkpointer       its checkpointer, or null without durable outputs.
     * @param sink               its output sink, or null without durable outputs.
     * @param firstOffset        the journal offset reading started at (or after), or -1.
     * @param resumedAfterOffset the offset of the checkpoint the run resumed from, or -1.
     */
    public RunCounters(
        final WindowAggregator aggregator,
        final Checkpointer checkpointer,
        final OutputJournalSink sink,
        final long firstOffset,
        final long resumedAfterOffset)
    {
        this.aggregator = aggregator;
        this.operator = aggregator.counters();
        this.checkpointer = checkpointer;
        this.sink = sink;
        this.eventsAtStart = operator.events();
        this.lateAtStart = operator.dropped() + operator.sideOutput();
        this.firstOffset = firstOffset;
        this.resumedAfterOffset = resumedAfterOffset;
    }

    /** @return events applied since the journal's start (restored from the checkpoint, plus this run's). */
    public long events()
    {
        return operator.events();
    }

    /** @return events applied by this run. */
    public long eventsThisRun()
    {
        return operator.events() - eventsAtStart;
    }

    /** @return late events dropped. */
    public long dropped()
    {
        return operator.dropped();
    }

    /** @return late events sent to the side output. */
    public long sideOutput()
    {
        return operator.sideOutput();
    }

    /** @return late events (dropped or sent to the side output) of this run. */
    public long lateThisRun()
    {
        return operator.dropped() + operator.sideOutput() - lateAtStart;
    }

    /**
     * @param percent the share of this run's events to keep on time, 1 to 100.
     * @return the smallest readable out-of-orderness, ms, under which that share of this run's events would not
     *         have been late (see {@link dev.weir.engine.time.EventDelays}), or -1 without events.
     */
    public long outOfOrdernessKeeping(final int percent)
    {
        return aggregator.delays().outOfOrdernessKeeping(percent);
    }

    /** @return events that fell in no window. */
    public long ignored()
    {
        return operator.ignored();
    }

    /** @return events the pipeline's filter rejected. */
    public long filtered()
    {
        return operator.filtered();
    }

    /** @return events dropped because a join found no row of their key (since the journal's start). */
    public long unmatched()
    {
        return operator.unmatched();
    }

    /** @return events whose computed value wrapped (since the journal's start). */
    public long valuesWrapped()
    {
        return operator.valuesWrapped();
    }

    /** @return additions to a window's sum that wrapped (since the journal's start). */
    public long sumsWrapped()
    {
        return operator.sumsWrapped();
    }

    /** @return duplicate events ignored. */
    public long duplicates()
    {
        return operator.duplicates();
    }

    /** @return window firings (re-firings included). */
    public long windowsFired()
    {
        return operator.windowsFired();
    }

    /** @return (key, window) states opened. */
    public long windowsOpened()
    {
        return operator.windowsOpened();
    }

    /** @return (key, window) states open now. */
    public long windowsOpen()
    {
        return aggregator.openWindows();
    }

    /** @return the watermark after the last event applied. */
    public long watermark()
    {
        return aggregator.watermark();
    }

    /** @return the journal offset of the last event applied, or -1. */
    public long offset()
    {
        return aggregator.lastOffset();
    }

    /** @return the journal offset reading started at, or -1. */
    public long firstOffset()
    {
        return firstOffset;
    }

    /** @return the offset of the checkpoint this run resumed from, or -1. */
    public long resumedAfterOffset()
    {
        return resumedAfterOffset;
    }

    /** @return the journal offset the run's last checkpoint covers, or -1. */
    public long checkpointOffset()
    {
        return checkpointer == null ? -1 : checkpointer.checkpointOffset();
    }

    /** @return checkpoints taken by this run. */
    public long checkpoints()
    {
        return checkpointer == null ? 0 : checkpointer.taken();
    }

    /** @return the longest pause a checkpoint caused, ns. */
    public long maxCheckpointNanos()
    {
        return checkpointer == null ? 0 : checkpointer.maxPauseNanos();
    }

    /** @return the mean pause a checkpoint caused, ns. */
    public long meanCheckpointNanos()
    {
        return checkpointer == null ? 0 : checkpointer.meanPauseNanos();
    }

    /** @return outputs (results and late events) appended to the output journal by this run. */
    public long outputs()
    {
        return sink == null ? 0 : sink.appended();
    }

    /** @return outputs reproduced after the checkpoint, verified against the output journal and not written again. */
    public long suppressedOutputs()
    {
        return sink == null ? 0 : sink.suppressed();
    }
}
