package dev.weir.engine;

import java.util.Objects;

import dev.weir.engine.emit.KeyText;
import dev.weir.engine.emit.LateEvent;
import dev.weir.engine.emit.LateListener;
import dev.weir.engine.emit.ResultListener;
import dev.weir.engine.emit.WindowResult;
import dev.weir.engine.expr.StringIds;
import dev.weir.engine.expr.StringTexts;
import dev.weir.engine.operator.WindowAggregator;
import dev.weir.engine.operator.WindowAssigner;
import dev.weir.engine.source.EventSlot;
import dev.weir.engine.source.SlotFiller;
import dev.weir.engine.stage.LastStage;
import dev.weir.engine.stage.RunCompletion;
import dev.weir.journal.KeyTuples;
import dev.weir.journal.schema.EventView;

/**
 * A configuration's window stages run in memory, synchronously, on the caller's thread: no journal, no
 * ring, no thread, nothing on disk, and nothing of Chronicle. Each event handed over is filled into a slot
 * as the journal's publisher fills one ({@link SlotFiller}: filter, key, value, columns), judged by the
 * {@link WindowAssigner} and applied by the {@link LastStage} over the {@link WindowAggregator}: the code a
 * running pipeline runs, with its watermark, lateness, late policy, dedupe, early and update rows. What a
 * {@link Pipeline} adds around them (recovery, checkpoints, the output journal, live metrics) is left out.
 * <p>
 * The caller plays the journal: it numbers the events and heartbeats with increasing offsets, and resolves
 * string columns to dictionary ids (the {@link StringIds} it gives must know every id of the events handed
 * over so far). Results and late events go first to the listeners given here, then to the configuration's
 * own ({@link PipelineBuilder#onResult}, {@link PipelineBuilder#onLate}); each event applied to the
 * configuration's {@link PipelineBuilder#onApplied} listener.
 * <p>
 * Not thread-safe: one thread makes it and calls it; the listeners are called on that thread, during the
 * call that fires them.
 */
public final class InMemoryRun
{
    private final WindowAssigner assigner;
    private final LastStage last;
    private final RunCompletion completion = new RunCompletion();
    private final SlotFiller filler;
    private final EventSlot slot;
    private final KeyTuples keys;
    private long sequence;
    private long lastOffset = -1;
    private boolean ended;

    /**
     * @param config  the configuration, concluded with or without a journal ({@link PipelineBuilder#concludeFor}).
     * @param strings resolves the string literals of a text filter ({@code where("status = 'approved'")}).
     * @param results told of each result first, then the configuration's listener.
     * @param late    told of each late event side-output first, then the configuration's listener.
     */
    public InMemoryRun(final PipelineConfiguration config, final StringIds strings, final ResultListener results, final LateListener late)
    {
        this(config, strings, null, results, late);
    }

    /**
     * @param config  the configuration, concluded with or without a journal ({@link PipelineBuilder#concludeFor}).
     * @param strings resolves the string literals of a text filter ({@code where("status = 'approved'")}) and of named
     *                aggregates' filters; a {@link StringTexts} also lets their filters compare two string columns.
     * @param texts   the string columns' values by id, for the results' key text ({@link WindowResult#key()}), or
     *                null for results without it.
     * @param results told of each result first, then the configuration's listener.
     * @param late    told of each late event side-output first, then the configuration's listener.
     */
    public InMemoryRun(
        final PipelineConfiguration config, final StringIds strings, final KeyText.Strings texts, final ResultListener results, final LateListener late)
    {
        Objects.requireNonNull(strings, "strings");
        final ResultListener ours = Objects.requireNonNull(results, "results");
        final LateListener oursLate = Objects.requireNonNull(late, "late");
        final ResultListener theirs = config.results();
        final LateListener theirsLate = config.late();
        this.assigner = config.newAssigner();
        this.keys = config.projection().keysByTuple() ? new KeyTuples(config.schema(), config.projection().keyColumns()) : null;
        final KeyText keyText = texts == null ? null : KeyText.of(config.projection(), texts, keys == null ? null : keys::component);
        final WindowAggregator aggregator = config.newAggregator(new ResultListener()
        {
            @Override
            public void onResult(final WindowResult result)
            {
                ours.onResult(result);
                theirs.onResult(result);
            }

            @Override
            public void onComplete()
            {
                ours.onComplete();
                theirs.onComplete();
            }
        }, new LateListener()
        {
            @Override
            public void onLate(final LateEvent event)
            {
                oursLate.onLate(event);
                theirsLate.onLate(event);
            }

            @Override
            public void onComplete()
            {
                oursLate.onComplete();
                theirsLate.onComplete();
            }
        }, keyText);
        this.last = new LastStage(aggregator, null, completion, config.applied(), null);
        this.filler = new SlotFiller(config.projection(), keys, config.newFilter(strings), config.copiedColumns(), null, null,
            config.newAggregateInputs(strings instanceof StringTexts withTexts ? withTexts : new IdsOnly(strings)));
        this.slot = new EventSlot(config.slotColumns(), config.slotInputs());
    }

    /**
     * Apply an event: filter it, project it, assign it to its windows and aggregate it, firing what its
     * watermark completes.
     *
     * @param offset its offset, greater than every offset handed over before.
     * @param event  the event, valid during the call.
     * @return true if the filter kept it, false if it only moved the watermark.
     * @throws IllegalStateException if the input has {@link #end() ended}.
     */
    public boolean event(final long offset, final EventView event)
    {
        next(offset);
        final boolean kept = filler.fill(slot, offset, event);
        apply();
        return kept;
    }

    /**
     * Apply a heartbeat: the watermark advances as an event of {@code eventTime} would move it.
     *
     * @param offset    its offset, greater than every offset handed over before.
     * @param eventTime its event time, epoch ms.
     * @throws IllegalStateException if the input has {@link #end() ended}.
     */
    public void heartbeat(final long offset, final long eventTime)
    {
        next(offset);
        slot.heartbeat(offset, eventTime);
        apply();
    }

    /**
     * End the input, as a bounded run does at the journal's end: the watermark goes to plus infinity and every
     * open window fires; the listeners' {@code onComplete} are called. Nothing can be applied after it.
     *
     * @throws IllegalStateException if the input has already ended.
     */
    public void end()
    {
        requireOpen();
        ended = true;
        slot.endOfInput(lastOffset);
        apply();
    }

    /** @return the watermark after the last event, heartbeat or end applied; {@link Long#MIN_VALUE} before any. */
    public long watermark()
    {
        return assigner.watermark();
    }

    /** @return the offset of the last event or heartbeat applied, or -1. */
    public long lastOffset()
    {
        return lastOffset;
    }

    /**
     * @return the key tuples that number a key of several columns, or of a long or decimal column (read
     *         {@link KeyTuples#component} to turn a result's key id into its columns); null when key ids are
     *         the dictionary ids of the one string key column.
     */
    public KeyTuples keyTuples()
    {
        return keys;
    }

    private void next(final long offset)
    {
        requireOpen();
        if (offset <= lastOffset)
        {
            throw new IllegalArgumentException("offsets must increase: " + offset + " after " + lastOffset);
        }
        lastOffset = offset;
    }

    private void requireOpen()
    {
        if (ended)
        {
            throw new IllegalStateException("the input has ended");
        }
    }

    /** Ids without texts, for named aggregates' filters: they resolve literals; comparing two string columns needs texts. */
    private static final class IdsOnly implements StringTexts
    {
        private final StringIds ids;

        IdsOnly(final StringIds ids)
        {
            this.ids = ids;
        }

        @Override
        public int idOf(final int column, final String text)
        {
            return ids.idOf(column, text);
        }

        @Override
        public CharSequence textOf(final int column, final int id)
        {
            throw new IllegalStateException("comparing two string columns needs the texts of their ids: give the run a StringTexts");
        }

        @Override
        public int definedCount(final int column)
        {
            throw new IllegalStateException("comparing two string columns needs the texts of their ids: give the run a StringTexts");
        }
    }

    private void apply()
    {
        assigner.assign(slot);
        last.onSlot(slot, sequence++, true);
    }
}
