package dev.weir.engine.emit;

import dev.weir.journal.OutputConsumer;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.OutputLayout;

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
 * Called on the engine's last-stage thread only.
 */
public final class OutputJournalSink implements ResultListener, LateListener, OutputConsumer
{
    private final OutputJournal output;
    private final ResultListener results;
    private final LateListener late;
    private boolean verifying;
    private long position;
    private long suppressed;
    private long appended;

    private int storedType;
    private long s0;
    private long s1;
    private long s2;
    private long s3;
    private long s4;
    private long s5;
    private long s6;
    private int sKey;
    private int sVersion;
    private boolean sHasAggregate;
    private long sAggregate;
    private final boolean withAggregate;

    /**
     * @param output      the output journal; owned by this sink from now on.
     * @param resumeAfter the output position covered by the restored checkpoint, or
     *                    {@link OutputJournal#NONE} when starting from the beginning.
     * @param results     the application's result listener, called for outputs not already stored.
     * @param late        the application's late listener, likewise.
     */
    public OutputJournalSink(final OutputJournal output, final long resumeAfter, final ResultListener results, final LateListener late)
    {
        this(output, resumeAfter, results, late, false);
    }

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
        this.withAggregate = withAggregate;
        this.output = output;
        this.results = results;
        this.late = late;
        this.position = resumeAfter;
        output.seekAfter(resumeAfter);
        output.handOff();
        this.verifying = true;
    }

    @Override
    public void onResult(final WindowResult r)
    {
        if (verifying && readStored())
        {
            if (storedType != OutputLayout.TYPE_RESULT || s0 != r.windowStart() || s1 != r.windowEnd() || sKey != r.keyId()
                || s2 != r.count() || s3 != r.sum() || s4 != r.min() || s5 != r.max() || sVersion != r.version()
                || s6 != r.sourceOffset() || sHasAggregate != withAggregate || sAggregate != (withAggregate ? r.aggregate() : 0))
            {
                throw new DeterminismException("replay reproduced result " + r + " at source offset " + r.sourceOffset()
                    + " but the output journal holds " + describeStored() + " at position " + position);
            }
            suppressed++;
            return;
        }
        position = withAggregate
            ? output.appendResult(
                r.windowStart(), r.windowEnd(), r.keyId(), r.count(), r.sum(), r.min(), r.max(), r.version(), r.sourceOffset(), r.aggregate())
            : output.appendResult(
                r.windowStart(), r.windowEnd(), r.keyId(), r.count(), r.sum(), r.min(), r.max(), r.version(), r.sourceOffset());
        appended++;
        results.onResult(r);
    }

    @Override
    public void onLate(final LateEvent e)
    {
        if (verifying && readStored())
        {
            if (storedType != OutputLayout.TYPE_LATE || s0 != e.eventId() || s1 != e.eventTime() || sKey != e.keyId()
                || s2 != e.value() || s3 != e.offset())
            {
                throw new DeterminismException("replay reproduced late event " + e.eventId() + " at source offset " + e.offset()
                    + " but the output journal holds " + describeStored() + " at position " + position);
            }
            suppressed++;
            return;
        }
        position = output.appendLate(e.eventId(), e.eventTime(), e.keyId(), e.value(), e.offset());
        appended++;
        late.onLate(e);
    }

    @Override
    public void onComplete()
    {
        results.onComplete();
        late.onComplete();
    }

    /**
     * @return the output position of the last output written or verified: what a checkpoint taken now
     *         covers.
     */
    public long position()
    {
        return position;
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

    private boolean readStored()
    {
        storedType = output.next(this);
        if (storedType == 0)
        {
            verifying = false;
            return false;
        }
        position = output.lastReadPosition();
        return true;
    }

    private String describeStored()
    {
        return storedType == OutputLayout.TYPE_RESULT
            ? "result " + s0 + "," + s1 + ",#" + sKey + "," + s2 + "," + s3 + "," + s4 + "," + s5 + "," + sVersion + " (source offset " + s6 + ")"
                + (sHasAggregate ? " aggregate " + sAggregate : "")
            : "late event " + s0 + " (source offset " + s3 + ")";
    }

    @Override
    public void onResult(
        final long windowStart, final long windowEnd, final int keyId, final long count, final long sum, final long min, final long max,
        final int version, final long sourceOffset, final boolean hasAggregate, final long aggregate)
    {
        onResult(windowStart, windowEnd, keyId, count, sum, min, max, version, sourceOffset);
        sHasAggregate = hasAggregate;
        sAggregate = aggregate;
    }

    @Override
    public void onResult(
        final long windowStart, final long windowEnd, final int keyId, final long count, final long sum, final long min, final long max,
        final int version, final long sourceOffset)
    {
        s0 = windowStart;
        s1 = windowEnd;
        s2 = count;
        s3 = sum;
        s4 = min;
        s5 = max;
        s6 = sourceOffset;
        sKey = keyId;
        sVersion = version;
    }

    @Override
    public void onLate(final long eventId, final long eventTime, final int keyId, final long value, final long offset)
    {
        s0 = eventId;
        s1 = eventTime;
        s2 = value;
        s3 = offset;
        sKey = keyId;
    }
}
