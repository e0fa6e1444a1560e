package dev.weir.kafka;

import org.agrona.collections.LongArrayList;

/**
 * Which Kafka offset each event of a partition's journal came from: pairs (journal offset, Kafka offset) appended
 * in increasing order as records are mirrored, looked up by journal offset, and dropped once no checkpoint or
 * output can refer to them any more. Both offsets grow, so a lookup is a binary search.
 * <p>
 * Not thread-safe: the instance's Kafka thread owns it.
 */
final class OffsetMap
{
    private LongArrayList journalOffsets = new LongArrayList();
    private LongArrayList kafkaOffsets = new LongArrayList();

    /**
     * @param journalOffset the journal offset of an event, greater than every one added before.
     * @param kafkaOffset   the Kafka offset of the record it came from.
     */
    void add(final long journalOffset, final long kafkaOffset)
    {
        journalOffsets.addLong(journalOffset);
        kafkaOffsets.addLong(kafkaOffset);
    }

    /**
     * @param journalOffset a journal offset.
     * @return the Kafka offset of the last event at or before it, or -1 if none is known.
     */
    long kafkaOffset(final long journalOffset)
    {
        int low = 0;
        int high = journalOffsets.size() - 1;
        int found = -1;
        while (low <= high)
        {
            final int mid = (low + high) >>> 1;
            if (journalOffsets.getLong(mid) <= journalOffset)
            {
                found = mid;
                low = mid + 1;
            }
            else
            {
                high = mid - 1;
            }
        }
        return found < 0 ? -1 : kafkaOffsets.getLong(found);
    }

    /**
     * Forget the pairs before the last one at or before {@code journalOffset} (that one is kept).
     *
     * @param journalOffset a journal offset no later lookup goes below.
     */
    void trimBefore(final long journalOffset)
    {
        int keepFrom = 0;
        while (keepFrom + 1 < journalOffsets.size() && journalOffsets.getLong(keepFrom + 1) <= journalOffset)
        {
            keepFrom++;
        }
        if (keepFrom > 0)
        {
            journalOffsets = tail(journalOffsets, keepFrom);
            kafkaOffsets = tail(kafkaOffsets, keepFrom);
        }
    }

    /**
     * @param list a list.
     * @param from the first index to keep.
     * @return a new list of its elements from {@code from} on.
     */
    static LongArrayList tail(final LongArrayList list, final int from)
    {
        final LongArrayList kept = new LongArrayList(Math.max(16, list.size() - from), Long.MIN_VALUE);
        for (int i = from; i < list.size(); i++)
        {
            kept.addLong(list.getLong(i));
        }
        return kept;
    }

    /**
     * @return the pairs held.
     */
    int size()
    {
        return journalOffsets.size();
    }
}
