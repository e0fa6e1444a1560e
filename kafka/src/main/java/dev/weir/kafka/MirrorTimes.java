package dev.weir.kafka;

import dev.weir.journal.EventViewConsumer;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.schema.EventView;
import org.agrona.collections.LongArrayList;

/**
 * The greatest event or heartbeat time of a partition's journal through any offset a checkpoint may cover: what a
 * pipeline's joins count their horizon from ({@code dev.weir.engine.join.Horizon}), so that a checkpoint can carry it
 * ({@link PartitionTables#maxTime()}). It reads each document as soon as the partition has written it
 * ({@link #readWritten}, on the thread that writes, after each write): the journal's retention, which follows the
 * pipeline's newest checkpoint, never removes a cycle it has not read. It keeps the offsets where the greatest time
 * grew, from the last shipped checkpoint on.
 * <p>
 * Not thread-safe: the instance's Kafka thread owns it (the thread that writes the journal).
 */
final class MirrorTimes implements EventViewConsumer, AutoCloseable
{
    private static final int BATCH = 4096;

    private final JournalReader reader;
    /** The offsets where the greatest time grew, ascending, and the greatest time from each on. */
    private LongArrayList grewAt = new LongArrayList();
    private LongArrayList times = new LongArrayList();
    /** The greatest time before the first offset kept. */
    private long before;
    private long maxTime;

    /**
     * @param journal the partition's journal.
     * @param maxTime the greatest time read before the journal's first document (a checkpoint's), or {@link Long#MIN_VALUE}.
     */
    MirrorTimes(final JournalDirectory journal, final long maxTime)
    {
        this.reader = JournalReader.open(journal);
        this.before = maxTime;
        this.maxTime = maxTime;
    }

    /** Read every document the partition has written so far. */
    void readWritten()
    {
        while (reader.poll(this, BATCH) > 0)
        {
            // read on
        }
    }

    /**
     * @param offset an offset of the journal whose documents are written.
     * @return the greatest event or heartbeat time of the documents through it, or {@link Long#MIN_VALUE} if none.
     */
    long maxTimeThrough(final long offset)
    {
        readWritten();
        int low = 0;
        int high = grewAt.size() - 1;
        int found = -1;
        while (low <= high)
        {
            final int mid = (low + high) >>> 1;
            if (grewAt.getLong(mid) <= offset)
            {
                found = mid;
                low = mid + 1;
            }
            else
            {
                high = mid - 1;
            }
        }
        return found < 0 ? before : times.getLong(found);
    }

    /**
     * Forget the offsets before one no later question goes below (a shipped checkpoint's).
     *
     * @param offset the offset.
     */
    void trimBefore(final long offset)
    {
        final long through = maxTimeThrough(offset);
        int first = 0;
        while (first < grewAt.size() && grewAt.getLong(first) <= offset)
        {
            first++;
        }
        if (first > 0)
        {
            before = through;
            grewAt = OffsetMap.tail(grewAt, first);
            times = OffsetMap.tail(times, first);
        }
    }

    @Override
    public void onEvent(final long offset, final EventView event)
    {
        note(offset, event.eventTime());
    }

    @Override
    public void onHeartbeat(final long offset, final long eventTime)
    {
        note(offset, eventTime);
    }

    private void note(final long offset, final long time)
    {
        if (time > maxTime)
        {
            maxTime = time;
            grewAt.addLong(offset);
            times.addLong(time);
        }
    }

    @Override
    public void close()
    {
        reader.close();
    }
}
