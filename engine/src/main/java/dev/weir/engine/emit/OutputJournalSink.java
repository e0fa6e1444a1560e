package dev.weir.engine.emit;

import dev.weir.journal.OutputConsumer;
import dev.weir.journal.codec.LateEventDecoder;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.codec.OutputDecoder;

/**
 * Writes every result and late event to the output journal exactly once, then hands it to the
 * application's listeners.
 * <p>
 * After a crash the engine restores its newest checkpoint and replays the journal from the offset it
 * covers, reproducing the outputs written since that checkpoint. Constructed with the checkpoint's
 * output position, this sink compares each reproduced output with the one already stored after that
 * position and suppresses it (the listeners are not called again); once past the last stored output it
 * appends. A reproduced output that differs from the stored one is a determinism bug: it stops the run
 * with {@link DeterminismException}, and nothing is written. Allocates nothing per output.
 * <p>
 * A pipeline that rebuilds a state an older Weir wrote ({@link #verifyEachEventInAnyOrder()}) starts from the
 * beginning and verifies the outputs each event reproduces as a group, in any order among themselves
 * ({@link ReproducedEventOutputs}); past the last stored output it appends them in the order reproduced.
 * Called on the engine's last-stage thread only.
 */
public final class OutputJournalSink implements ResultListener, LateListener, OutputConsumer
{
    private final OutputJournal output;
    private final ResultListener results;
    private final LateListener late;
    private boolean verifying;
    private long position;
    /** True when outputs were appended since {@link #position} was last learnt from the output journal. */
    private boolean appendedSincePosition;
    private long suppressed;
    private long appended;

    /** The output being verified against the stored one: exactly one of the two is set during {@link #verify}. */
    private WindowResult reproducedResult;
    private LateEvent reproducedLate;
    private final int aggregates;
    /** The outputs of one event held for verification in any order, or null to verify one by one. */
    private ReproducedEventOutputs eventOutputs;
    /** With {@link #eventOutputs}: the position of the last output stored before this run. */
    private long olderOutputsEnd = OutputJournal.NONE;

    /**
     * @param output        the output journal; owned by this sink from now on.
     * @param resumeAfter   the output position covered by the restored checkpoint, or
     *                      {@link OutputJournal#NONE} when starting from the beginning.
     * @param results       the application's result listener, called for outputs not already stored.
     * @param late          the application's late listener, likewise.
     * @param withAggregate store each result's user aggregation value with it (and verify it on replay).
     */
    public OutputJournalSink(
        final OutputJournal output, final long resumeAfter, final ResultListener results, final LateListener late, final boolean withAggregate)
    {
        this(output, resumeAfter, results, late, withAggregate ? 1 : 0);
    }

    /**
     * @param output      the output journal; owned by this sink from now on.
     * @param resumeAfter the output position covered by the restored checkpoint, or
     *                    {@link OutputJournal#NONE} when starting from the beginning.
     * @param results     the application's result listener, called for outputs not already stored.
     * @param late        the application's late listener, likewise.
     * @param aggregates  how many user aggregations' values to store with each result (and verify on replay); with
     *                    named aggregates, their number plus one: the presence mask.
     */
    public OutputJournalSink(
        final OutputJournal output, final long resumeAfter, final ResultListener results, final LateListener late, final int aggregates)
    {
        this.aggregates = aggregates;
        this.output = output;
        this.results = results;
        this.late = late;
        this.position = resumeAfter;
        output.seekAfter(resumeAfter);
        output.handOff();
        this.verifying = true;
    }

    /**
     * Verify the stored outputs of each event in any order among themselves, not one by one: for a state rebuilt
     * by replay from a checkpoint an older Weir wrote, which fired the windows of one start in another order.
     * Call before the first output.
     */
    public void verifyEachEventInAnyOrder()
    {
        eventOutputs = new ReproducedEventOutputs(aggregates);
        olderOutputsEnd = output.lastPosition();
        output.handOff();
    }

    /**
     * @return true while outputs stored before this run remain to be verified in any order
     *         ({@link #verifyEachEventInAnyOrder()}): a checkpoint taken now would make the next run verify them
     *         one by one, in this Weir's order, so none is taken (the checkpointer asks, between two events).
     */
    public boolean holdsOlderOutputs()
    {
        return eventOutputs != null && position() < olderOutputsEnd;
    }

    @Override
    public void onResult(final WindowResult r)
    {
        if (verifying && eventOutputs != null && holdsFor(r.sourceOffset()))
        {
            eventOutputs.add(r);
            return;
        }
        if (verifying)
        {
            reproducedResult = r;
            reproducedLate = null;
            if (verify())
            {
                return;
            }
        }
        appendedAt(output.appendResult(r.stored(), aggregates));
        results.onResult(r);
    }

    @Override
    public void onLate(final LateEvent e)
    {
        if (verifying && eventOutputs != null && holdsFor(e.offset()))
        {
            eventOutputs.add(e);
            return;
        }
        if (verifying)
        {
            reproducedResult = null;
            reproducedLate = e;
            if (verify())
            {
                return;
            }
        }
        appendedAt(output.appendLate(e));
        late.onLate(e);
    }

    @Override
    public void onComplete()
    {
        settle();
        flush();
        results.onComplete();
        late.onComplete();
    }

    /**
     * @return the output position of the last output written or verified: what a checkpoint taken now
     *         covers (between two events, where checkpoints are taken). The outputs appended and held for the next
     *         document of a journal of batched documents are written first ({@link #flush()}).
     */
    public long position()
    {
        settle(); // the last event's outputs are all reproduced
        flush();
        return position;
    }

    /**
     * Write the outputs appended and held for the next document of a journal of batched documents, as one document:
     * the engine calls it at the end of each batch of events it applies, so no output waits for more; and before a
     * checkpoint records the output position ({@link #position()}). Allocates nothing.
     */
    public void flush()
    {
        if (appendedSincePosition)
        {
            output.flush();
            position = output.lastAppendedPosition();
            appendedSincePosition = false;
        }
    }

    private void appendedAt(final long appendedPosition)
    {
        appended++;
        if (appendedPosition == OutputJournal.PENDING)
        {
            appendedSincePosition = true;
        }
        else
        {
            position = appendedPosition;
        }
    }

    /**
     * @return outputs reproduced during recovery and suppressed because they were already stored.
     */
    public long suppressed()
    {
        return suppressed;
    }

    /**
     * @return outputs appended by this sink.
     */
    public long appended()
    {
        return appended;
    }

    /**
     * Hand the sink to another thread (see {@code OutputJournal.handOff()}).
     */
    public void handOff()
    {
        output.handOff();
    }

    /**
     * Force the output journal to disk.
     */
    public void sync()
    {
        flush();
        output.sync();
    }

    /**
     * Close the output journal.
     */
    public void close()
    {
        output.handOff();
        output.close();
    }

    /**
     * Compare the reproduced output with the next stored one.
     *
     * @return true if one was stored (and matched: the output is suppressed); false past the last stored output.
     */
    private boolean verify()
    {
        if (output.next(this) == 0)
        {
            verifying = false;
            output.closeCursor(); // read no more: let go of the cycle it stands in, which retention may remove
            return false;
        }
        position = output.lastReadPosition();
        suppressed++;
        return true;
    }

    /**
     * An output of the event at {@code offset}: settle the outputs held for an earlier event first.
     *
     * @return true if it is to be held too (stored outputs remain to verify it against).
     */
    private boolean holdsFor(final long offset)
    {
        if (eventOutputs.size() > 0 && eventOutputs.offset() != offset)
        {
            settle();
        }
        return verifying;
    }

    /**
     * Verify the outputs of one event held by {@link #eventOutputs} against as many stored ones, in any order,
     * then append those past the last stored output, in the order reproduced.
     */
    private void settle()
    {
        if (eventOutputs == null || eventOutputs.size() == 0)
        {
            return;
        }
        final int n = eventOutputs.size();
        for (int i = 0; i < n && verifying; i++)
        {
            eventOutputs.storedAt(position);
            if (output.next(eventOutputs) == 0)
            {
                verifying = false;
                output.closeCursor();
            }
            else
            {
                position = output.lastReadPosition();
                suppressed++;
            }
        }
        for (int i = 0; i < n; i++)
        {
            if (!eventOutputs.matched(i))
            {
                if (eventOutputs.isLate(i))
                {
                    appendedAt(output.appendLate(eventOutputs.late(i)));
                    late.onLate(eventOutputs.late(i));
                }
                else
                {
                    appendedAt(output.appendResult(eventOutputs.result(i).stored(), aggregates));
                    results.onResult(eventOutputs.result(i));
                }
            }
        }
        eventOutputs.clear();
    }

    /**
     * The stored output read by {@link #verify}: it must equal the reproduced one.
     *
     * @param stored the stored output.
     */
    @Override
    public void onOutput(final OutputDecoder stored)
    {
        if (reproducedResult != null)
        {
            if (!stored.isResult() || !stored.result().matches(reproducedResult.stored(), aggregates))
            {
                throw new DeterminismException("replay reproduced result " + reproducedResult + " at source offset "
                    + reproducedResult.sourceOffset() + " but the output journal holds " + stored + " at position " + output.lastReadPosition());
            }
        }
        else if (!stored.isLate() || !matches(stored.late(), reproducedLate))
        {
            throw new DeterminismException("replay reproduced late event " + reproducedLate.eventId() + " at source offset "
                + reproducedLate.offset() + " but the output journal holds " + stored + " at position " + output.lastReadPosition());
        }
    }

    static boolean matches(final LateEventDecoder stored, final LateEvent e)
    {
        return stored.eventId() == e.eventId() && stored.eventTime() == e.eventTime() && stored.keyId() == e.keyId()
            && stored.value() == e.value() && stored.offset() == e.offset();
    }
}
