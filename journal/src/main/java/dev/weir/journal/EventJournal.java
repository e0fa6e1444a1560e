package dev.weir.journal;

import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * The append side of the event journal: the offset log.
 * <p>
 * Each {@link #append} writes one fixed-layout document ({@link EventEncoder}) to the journal's
 * {@code events} Chronicle Queue and returns its offset, the queue index: offsets grow in append order
 * and survive restarts. Keys are interned in the journal's {@link KeyDictionary}; the first event of a
 * key carries its string in the same document, so every key id in the log can be mapped back to its
 * string by any later reader, whenever the writer died.
 * <p>
 * Appending a known key id allocates nothing. Not thread-safe: one owner thread appends. One appender
 * at a time, in any process, may append to a journal: an {@code EventJournal} holds the journal's
 * {@code events.lock} (see {@link AppendLock}) from opening to {@link #close()}, and opening a second
 * one while it is held throws {@link JournalRefusedException}.
 */
public final class EventJournal implements AutoCloseable
{
    /**
     * The latest event time accepted, 2^62 ms (about 146 million years): far enough from
     * {@link Long#MAX_VALUE} that window ends, lateness and the watermark never overflow.
     */
    public static final long MAX_EVENT_TIME = 1L << 62;

    /** An upper bound of a document's bytes besides its strings. */
    private static final int EVENT_BYTES = 64;

    private final JournalDirectory directory;
    private final SingleChronicleQueue queue;
    private final ExcerptAppender appender;
    private final KeyDictionary keys;
    private final AppendLock lock;
    private final AppendReserve reserve;
    private final EventEncoder encoder = new EventEncoder();
    private final IngestStartEncoder ingestStart = new IngestStartEncoder();
    private final RejectedLineEncoder rejectedLine = new RejectedLineEncoder();

    private EventJournal(final JournalDirectory directory)
    {
        this.directory = directory;
        this.lock = AppendLock.acquire(directory, "events");
        try
        {
            this.queue = JournalQueues.open(directory, directory.eventsQueue());
        }
        catch (final RuntimeException ex)
        {
            lock.close();
            throw ex;
        }
        this.keys = KeyDictionary.over(queue);
        this.appender = queue.createAppender();
        this.reserve = new AppendReserve(directory.eventsQueue());
    }

    /**
     * Open a journal for appending, creating it if the directory is missing or empty.
     *
     * @param directory the journal directory.
     * @return the journal.
     * @throws JournalRefusedException if the directory is not a Weir journal, or another appender has it open.
     */
    public static EventJournal openOrCreate(final java.nio.file.Path directory)
    {
        return new EventJournal(JournalDirectory.openOrCreate(directory));
    }

    /**
     * Open a journal for appending.
     *
     * @param directory the journal directory.
     * @return the journal.
     * @throws JournalRefusedException if another appender has it open.
     */
    public static EventJournal open(final JournalDirectory directory)
    {
        return new EventJournal(directory);
    }

    /**
     * Append one event.
     *
     * @param eventId   the event's id.
     * @param eventTime the event's time, epoch ms, &gt;= 0.
     * @param key       the event's key, valid under {@link KeyFormat}.
     * @param value     the event's value.
     * @return the offset of the appended event.
     * @throws IllegalArgumentException if the time is negative or the key invalid.
     */
    public long append(final long eventId, final long eventTime, final String key, final long value)
    {
        return append(eventId, eventTime, keys.intern(key), value);
    }

    /**
     * Append one event whose key is already interned. Allocates nothing.
     *
     * @param eventId   the event's id.
     * @param eventTime the event's time, epoch ms, &gt;= 0.
     * @param keyId     an id returned by {@link #keyId(String)}.
     * @param value     the event's value.
     * @return the offset of the appended event.
     * @throws IllegalArgumentException if the time is negative or the key id unknown.
     */
    public long append(final long eventId, final long eventTime, final int keyId, final long value)
    {
        return write(eventId, eventTime, keyId, value, -1, -1);
    }

    /**
     * Append one event read from line {@code line} of the source of the current ingest (see
     * {@link #appendIngestStart}): the event carries its line number, so that the ingest's progress is
     * told by its own documents only, whatever else is appended between two ingests.
     *
     * @param line      the input line the event came from, &gt;= 0.
     * @param eventId   the event's id.
     * @param eventTime the event's time, epoch ms, &gt;= 0.
     * @param key       the event's key, valid under {@link KeyFormat}.
     * @param value     the event's value.
     * @param unterminatedLength the line's length in bytes if it had no line terminator (the last line of
     *                  a source declared complete), recorded so that a later ingest can tell that it grew;
     *                  else -1.
     * @return the offset of the appended event.
     * @throws IllegalArgumentException if the time is negative or the key invalid.
     */
    public long appendIngested(
        final long line, final long eventId, final long eventTime, final String key, final long value, final long unterminatedLength)
    {
        if (line < 0)
        {
            throw new IllegalArgumentException("line must be >= 0: " + line);
        }
        return write(eventId, eventTime, keys.intern(key), value, line, unterminatedLength);
    }

    private long write(final long eventId, final long eventTime, final int keyId, final long value, final long line, final long unterminatedLength)
    {
        if (eventTime < 0 || eventTime > MAX_EVENT_TIME)
        {
            throw new IllegalArgumentException("event_time must be between 0 and " + MAX_EVENT_TIME + ": " + eventTime);
        }
        if (keyId < 0 || keyId >= keys.size())
        {
            throw new IllegalArgumentException("unknown key id " + keyId);
        }
        if (keys.isWritten(keyId))
        {
            try (DocumentContext dc = appender.writingDocument())
            {
                reserve.before(dc, appender, EVENT_BYTES);
                writeLine(encoder.wrap(dc.wire().bytes(), false).eventId(eventId).eventTime(eventTime).value(value).keyId(keyId),
                    line, unterminatedLength);
            }
        }
        else
        {
            try (DocumentContext dc = appender.writingDocument())
            {
                reserve.before(dc, appender, EVENT_BYTES + textBytes(keys.name(keyId)));
                writeLine(encoder.wrap(dc.wire().bytes(), true).eventId(eventId).eventTime(eventTime).value(value).keyId(keyId)
                    .key(keys.name(keyId)), line, unterminatedLength);
            }
            keys.markWritten(keyId);
        }
        return appender.lastIndexAppended();
    }

    private static void writeLine(final EventEncoder event, final long line, final long unterminatedLength)
    {
        if (line >= 0)
        {
            event.line(line);
            if (unterminatedLength >= 0)
            {
                event.unterminatedLength(unterminatedLength);
            }
        }
    }

    /**
     * Mark the start of an ingest of {@code source} at line {@code firstLine}: the lines that follow are
     * appended with {@link #appendIngested} and {@link #appendRejected}, in order, each carrying its line
     * number; other events appended before the next ingest start are no lines of it.
     *
     * @param source    the identity of the source.
     * @param firstLine the line number of the next line to be appended.
     * @return the offset of the marker.
     */
    public long appendIngestStart(final String source, final long firstLine)
    {
        try (DocumentContext dc = appender.writingDocument())
        {
            reserve.before(dc, appender, EVENT_BYTES + textBytes(source));
            ingestStart.wrap(dc.wire().bytes()).firstLine(firstLine).source(source);
        }
        return appender.lastIndexAppended();
    }

    /**
     * Record a line that is not a valid event, in order with the events.
     *
     * @param line    its line number.
     * @param reason  why it was rejected.
     * @param content the line as read.
     * @return the offset of the record.
     */
    public long appendRejected(final long line, final String reason, final String content)
    {
        return appendRejected(line, reason, content, -1);
    }

    /**
     * Record a line that is not a valid event, in order with the events.
     *
     * @param line    its line number.
     * @param reason  why it was rejected.
     * @param content the line as read.
     * @param unterminatedLength its length in bytes if it had no line terminator (see
     *                {@link #appendIngested}), else -1.
     * @return the offset of the record.
     */
    public long appendRejected(final long line, final String reason, final String content, final long unterminatedLength)
    {
        try (DocumentContext dc = appender.writingDocument())
        {
            reserve.before(dc, appender, EVENT_BYTES + 20 + textBytes(reason) + textBytes(content));
            rejectedLine.wrap(dc.wire().bytes()).line(line).reason(reason).content(content).unterminatedLength(unterminatedLength);
        }
        return appender.lastIndexAppended();
    }

    /**
     * Force the events and keys to disk, so they survive a machine crash (a process crash loses
     * nothing already appended). Milliseconds: call it at batch boundaries, not per event.
     */
    public void sync()
    {
        QueueSync.force(queue);
    }

    /**
     * Intern a key, defining it durably if new.
     *
     * @param key a key valid under {@link KeyFormat}.
     * @return its dense id, usable with {@link #append(long, long, int, long)}.
     */
    public int keyId(final String key)
    {
        return keys.intern(key);
    }

    /**
     * @return the key dictionary this journal interns into (owned by the appending thread).
     */
    public KeyDictionary keys()
    {
        return keys;
    }

    /**
     * @return the journal directory.
     */
    public JournalDirectory directory()
    {
        return directory;
    }

    @Override
    public void close()
    {
        try
        {
            reserve.close();
            keys.close();
            queue.close();
        }
        finally
        {
            lock.close();
        }
    }

    /** @return an upper bound of a string's bytes in a document (UTF-8 and its length prefix). */
    private static long textBytes(final String s)
    {
        return 8 + 3L * s.length();
    }
}
