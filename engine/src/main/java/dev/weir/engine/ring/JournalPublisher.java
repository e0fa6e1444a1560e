package dev.weir.engine.ring;

import com.lmax.disruptor.RingBuffer;
import dev.weir.journal.EventConsumer;
import dev.weir.journal.JournalReader;

/**
 * Reads the journal and publishes each event into the ring: the pipeline's single producer.
 * <p>
 * {@link #run()} reads from the reader's position to the current end of the journal, then publishes an
 * end-of-input marker (a bounded run). Each event is copied into a pre-allocated {@link EventSlot}:
 * nothing is allocated per event. Not thread-safe: runs on one publisher thread.
 */
public final class JournalPublisher implements Runnable, EventConsumer
{
    private static final int BATCH = 1024;

    private final JournalReader reader;
    private final RingBuffer<EventSlot> ring;
    private final RunCompletion completion;
    private volatile boolean stopped;

    /**
     * @param reader     positioned at the first event to process; owned by this publisher from now on.
     * @param ring       the ring to publish into.
     * @param completion told if reading fails.
     */
    public JournalPublisher(final JournalReader reader, final RingBuffer<EventSlot> ring, final RunCompletion completion)
    {
        this.reader = reader;
        this.ring = ring;
        this.completion = completion;
    }

    @Override
    public void run()
    {
        try
        {
            while (!stopped && reader.poll(this, BATCH) > 0)
            {
                // poll publishes each event through onEvent
            }
            if (!stopped)
            {
                final long sequence = ring.next();
                ring.get(sequence).endOfInput(reader.lastReadOffset());
                ring.publish(sequence);
            }
        }
        catch (final Throwable ex)
        {
            completion.fail(ex);
        }
    }

    @Override
    public void onEvent(final long offset, final long eventId, final long eventTime, final int keyId, final long value)
    {
        final long sequence = ring.next();
        ring.get(sequence).event(offset, eventId, eventTime, keyId, value);
        ring.publish(sequence);
    }

    /**
     * Ask the publisher to stop after its current batch.
     */
    public void stop()
    {
        stopped = true;
    }
}
