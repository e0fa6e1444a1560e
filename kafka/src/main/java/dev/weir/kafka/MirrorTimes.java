package dev.weir.kafka;

import dev.weir.journal.EventViewConsumer;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.schema.EventView;
import dev.weir.journal.schema.TableRowView;

/**
 * The greatest event or heartbeat time of a partition's journal through an offset, read as the journal grows: what a
 * pipeline's joins count their horizon from ({@code dev.weir.engine.join.Horizon}), so that a checkpoint can carry it
 * ({@link PartitionTables#maxTime()}). It reads one document at a time and holds the first one past the offset asked
 * for, so a later, greater offset goes on from there.
 * <p>
 * Not thread-safe: the instance's Kafka thread owns it.
 */
final class MirrorTimes implements EventViewConsumer, AutoCloseable
{
    private final JournalReader reader;
    private long maxTime;
    /** The document read and not yet counted: its offset (or {@link Long#MIN_VALUE} if none) and its time, if it has one. */
    private long heldOffset = Long.MIN_VALUE;
    private long heldTime = Long.MIN_VALUE;

    /**
     * @param journal  the partition's journal.
     * @param maxTime  the greatest time read before the journal's first document (a checkpoint's), or {@link Long#MIN_VALUE}.
     */
    MirrorTimes(final JournalDirectory journal, final long maxTime)
    {
        this.reader = JournalReader.open(journal);
        this.maxTime = maxTime;
    }

    /**
     * @param offset an offset of the journal, at or after the last one asked for, whose documents are written.
     * @return the greatest event or heartbeat time of the documents through it, or {@link Long#MIN_VALUE} if none.
     */
    long maxTimeThrough(final long offset)
    {
        while (true)
        {
            if (heldOffset != Long.MIN_VALUE)
            {
                if (heldOffset > offset)
                {
                    return maxTime;
                }
                maxTime = Math.max(maxTime, heldTime);
                heldOffset = Long.MIN_VALUE;
            }
            if (reader.poll(this, 1) == 0)
            {
                return maxTime;
            }
        }
    }

    @Override
    public void onEvent(final long offset, final EventView event)
    {
        hold(offset, event.eventTime());
    }

    @Override
    public void onHeartbeat(final long offset, final long eventTime)
    {
        hold(offset, eventTime);
    }

    @Override
    public void onTableRow(final long offset, final TableRowView row)
    {
        hold(offset, Long.MIN_VALUE);
    }

    private void hold(final long offset, final long time)
    {
        heldOffset = offset;
        heldTime = time;
    }

    @Override
    public void close()
    {
        reader.close();
    }
}
