package dev.weir.journal;

/**
 * How many events a journal holds after an offset: a pipeline's lag behind the journal, read by one pass over the
 * events after it (heartbeats and rejected lines are not events). Reads only; stateless, so safe from any thread.
 */
public final class EventLag
{
    private EventLag()
    {
    }

    /**
     * @param journal the journal.
     * @param offset  an offset of it, or a negative one for all its events.
     * @return how many events the journal holds after the offset.
     */
    public static long after(final JournalDirectory journal, final long offset)
    {
        final long[] events = {0};
        final EventViewConsumer counter = (o, e) -> events[0]++;
        try (JournalReader reader = JournalReader.open(journal))
        {
            if (offset >= 0)
            {
                reader.seekAfter(offset);
            }
            while (reader.poll(counter, 4096) > 0)
            {
                // to the end
            }
        }
        return events[0];
    }
}
