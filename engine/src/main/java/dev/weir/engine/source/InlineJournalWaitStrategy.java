package dev.weir.engine.source;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.WaitStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * The wait strategy of the inline layout: the ring's only consumer, finding no slot to process, reads
 * the journal itself and publishes the next batch into the ring ({@link JournalPublisher#step()}), so
 * reading, assignment, aggregation and firing all run on one thread with no hand-off between cores.
 * The ring is never full when the consumer waits (it has processed every published slot and a batch is
 * at most the ring's size), so publishing cannot block.
 * <p>
 * While a following pipeline finds nothing new it idles with the given {@link IdleStrategy}.
 * Must be driven ({@link #drive(JournalPublisher)}) before the consumer starts; used by exactly one
 * consumer thread, which becomes the publisher's owner. Only valid for a single-consumer ring.
 */
public final class InlineJournalWaitStrategy implements WaitStrategy
{
    private final IdleStrategy idle;
    private final RunFailure completion;
    private JournalPublisher publisher;

    /**
     * @param idle       how to wait while a following pipeline finds no new events.
     * @param completion told if reading the journal fails.
     */
    public InlineJournalWaitStrategy(final IdleStrategy idle, final RunFailure completion)
    {
        this.idle = idle;
        this.completion = completion;
    }

    /**
     * @param journalPublisher the publisher the consumer thread steps when it runs out of slots.
     */
    public void drive(final JournalPublisher journalPublisher)
    {
        this.publisher = journalPublisher;
    }

    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence, final SequenceBarrier barrier)
        throws AlertException
    {
        long available;
        while ((available = dependentSequence.get()) < sequence)
        {
            barrier.checkAlert();
            final int published;
            try
            {
                published = publisher.step();
            }
            catch (final RuntimeException | Error ex)
            {
                // the run fails here; the event processor then stops on the rethrown failure
                completion.fail(ex);
                throw new IllegalStateException("reading the journal failed: " + ex, ex);
            }
            if (published > 0)
            {
                idle.reset();
            }
            else if (dependentSequence.get() < sequence)
            {
                idle.idle();
            }
        }
        return available;
    }

    @Override
    public void signalAllWhenBlocking()
    {
        // the consumer never blocks waiting for another thread
    }
}
