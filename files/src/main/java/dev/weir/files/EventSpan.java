package dev.weir.files;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;

/**
 * The offsets of the first and the last event of a journal, found by reading it whole (documents that are
 * not events, such as ingest records, do not count). Immutable and thread-safe.
 *
 * @param first the first event's offset, or -1 if the journal holds no event.
 * @param last  the last event's offset, or -1 if the journal holds no event.
 */
record EventSpan(long first, long last)
{
    /**
     * @param directory the journal, only read.
     * @return its events' span as of now.
     */
    static EventSpan of(final JournalDirectory directory)
    {
        final long[] span = {-1, -1};
        try (JournalReader reader = JournalReader.open(directory))
        {
            while (reader.poll((offset, eventId, eventTime, keyId, value) ->
            {
                if (span[0] < 0)
                {
                    span[0] = offset;
                }
                span[1] = offset;
            }, 4_096) > 0)
            {
                // read on to the end
            }
        }
        return new EventSpan(span[0], span[1]);
    }

    /**
     * @param from the first offset of a range (inclusive), or -1 for the journal's first.
     * @param to   the last offset of the range (inclusive).
     * @return true if the range holds every event of the journal.
     */
    boolean within(final long from, final long to)
    {
        return first < 0 || (from <= first && last <= to);
    }

    @Override
    public String toString()
    {
        return first < 0 ? "no events" : "events at offsets " + first + ".." + last;
    }
}
