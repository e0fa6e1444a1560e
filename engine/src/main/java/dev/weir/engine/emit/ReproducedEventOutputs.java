package dev.weir.engine.emit;

import java.util.Arrays;

import dev.weir.engine.fired.FiredResult;
import dev.weir.engine.fired.SkippedEvent;
import dev.weir.journal.OutputConsumer;
import dev.weir.journal.codec.OutputDecoder;

/**
 * The outputs one journal event reproduced while a pipeline rebuilds a state an older Weir wrote, held until
 * they are matched against the outputs stored for that event, in any order among themselves: a Weir that wrote
 * state format 1 fired the windows of one start in key order, this one fires them in the order they opened, so
 * the rows one event produced may be stored in another order; across events the order is the same.
 * <p>
 * As the {@link OutputConsumer} of one stored output, it marks the first held output equal to it, or throws
 * {@link DeterminismException} if none is. The copies are reused from one event to the next. Not thread-safe:
 * the engine's last-stage thread only.
 */
final class ReproducedEventOutputs implements OutputConsumer
{
    private final int aggregates;
    private WindowResult[] results = new WindowResult[16];
    private FiredResult[] resultCopies = new FiredResult[16];
    private LateEvent[] lates = new LateEvent[16];
    private SkippedEvent[] lateCopies = new SkippedEvent[16];
    private boolean[] late = new boolean[16];
    private boolean[] matched = new boolean[16];
    private int size;
    private long offset;
    private long storedPosition;

    /**
     * @param aggregates how many user aggregations' values a result carries.
     */
    ReproducedEventOutputs(final int aggregates)
    {
        this.aggregates = aggregates;
    }

    /** @return the outputs held. */
    int size()
    {
        return size;
    }

    /** @return the journal offset of the event whose outputs are held (valid when {@link #size()} is not 0). */
    long offset()
    {
        return offset;
    }

    /** @param position the output position of the stored output about to be matched, for the message. */
    void storedAt(final long position)
    {
        storedPosition = position;
    }

    /** @param r a reproduced result, copied. */
    void add(final WindowResult r)
    {
        final int i = grow(r.sourceOffset());
        if (results[i] == null)
        {
            resultCopies[i] = new FiredResult();
            results[i] = r.over(resultCopies[i]);
        }
        resultCopies[i].copy(r.stored());
        late[i] = false;
    }

    /** @param e a reproduced late event, copied. */
    void add(final LateEvent e)
    {
        final int i = grow(e.offset());
        if (lates[i] == null)
        {
            lateCopies[i] = new SkippedEvent();
            lates[i] = e.over(lateCopies[i]);
        }
        lateCopies[i].set(e.eventId(), e.eventTime(), e.keyId(), e.value(), e.offset());
        late[i] = true;
    }

    /** @return true if the output at {@code i} is a late event, false if a result. */
    boolean isLate(final int i)
    {
        return late[i];
    }

    /** @return true if the output at {@code i} matched a stored one. */
    boolean matched(final int i)
    {
        return matched[i];
    }

    /** @return the result at {@code i} (when not {@link #isLate(int)}). */
    WindowResult result(final int i)
    {
        return results[i];
    }

    /** @return the late event at {@code i} (when {@link #isLate(int)}). */
    LateEvent late(final int i)
    {
        return lates[i];
    }

    /** Forget the outputs held. */
    void clear()
    {
        size = 0;
    }

    @Override
    public void onOutput(final OutputDecoder stored)
    {
        for (int i = 0; i < size; i++)
        {
            if (!matched[i] && (late[i] ? stored.isLate() && OutputJournalSink.matches(stored.late(), lates[i])
                : stored.isResult() && stored.result().matches(results[i].stored(), aggregates)))
            {
                matched[i] = true;
                return;
            }
        }
        throw new DeterminismException("rebuilding the state by replay reproduced " + size + " outputs for the event at source offset "
            + offset + " but the output journal holds " + stored + " after position " + storedPosition + ", which is none of them");
    }

    private int grow(final long eventOffset)
    {
        if (size == results.length)
        {
            results = Arrays.copyOf(results, size * 2);
            resultCopies = Arrays.copyOf(resultCopies, size * 2);
            lates = Arrays.copyOf(lates, size * 2);
            lateCopies = Arrays.copyOf(lateCopies, size * 2);
            late = Arrays.copyOf(late, size * 2);
            matched = Arrays.copyOf(matched, size * 2);
        }
        offset = eventOffset;
        matched[size] = false;
        return size++;
    }
}
