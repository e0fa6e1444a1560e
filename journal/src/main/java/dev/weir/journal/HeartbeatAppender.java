package dev.weir.journal;

import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;

import dev.weir.journal.codec.Heartbeat;

/**
 * An occasional appender of heartbeats ({@link Heartbeat}) to a journal that another process may be
 * appending events to: a following pipeline's idle heartbeats.
 * <p>
 * It does not hold the journal's {@code events.lock} (see {@link AppendLock}): each {@link #tryAppend} takes
 * it with a try-lock for that one append and releases it at once. If another appender (an ingest, an
 * {@link EventJournal}) holds it, the heartbeat is skipped: that appender is active, and its events move the
 * watermark. Heartbeats are untagged documents, so an ingest's line accounting passes over them.
 * <p>
 * Not thread-safe: one owner thread (it owns its Chronicle appender), which may differ from the threads
 * reading the journal.
 */
public final class HeartbeatAppender implements AutoCloseable
{
    private final JournalDirectory directory;
    private final SingleChronicleQueue queue;
    private final ExcerptAppender appender;
    private final AppendReserve reserve;

    private HeartbeatAppender(final JournalDirectory directory)
    {
        this.directory = directory;
        this.queue = JournalQueues.open(directory, directory.eventsQueue());
        this.appender = queue.createAppender();
        this.reserve = new AppendReserve(directory.eventsQueue());
    }

    /**
     * @param directory an existing journal.
     * @return an appender of heartbeats to it; holds no lock.
     */
    public static HeartbeatAppender open(final JournalDirectory directory)
    {
        return new HeartbeatAppender(directory);
    }

    /**
     * Append one heartbeat if no other appender holds the journal's lock now.
     *
     * @param eventTime the heartbeat's event time, epoch ms, between 0 and {@link EventJournal#MAX_EVENT_TIME}.
     * @return its offset, or -1 if it was skipped because another appender holds the lock.
     * @throws IllegalArgumentException if the time is out of range.
     */
    public long tryAppend(final long eventTime)
    {
        final AppendLock lock = AppendLock.tryAcquire(directory.root(), "events");
        if (lock == null)
        {
            return -1;
        }
        try
        {
            return directory.offsets().offset(EventJournal.writeHeartbeat(directory, appender, reserve, eventTime), 0);
        }
        finally
        {
            lock.close();
        }
    }

    @Override
    public void close()
    {
        try
        {
            reserve.close();
            appender.close();
        }
        finally
        {
            queue.close();
        }
    }
}
