package dev.weir.journal;

import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import dev.weir.journal.codec.DocumentType;
import dev.weir.journal.codec.LateEventEncoder;
import dev.weir.journal.codec.LateFields;
import dev.weir.journal.codec.OutputDecoder;
import dev.weir.journal.codec.ResultEncoder;
import dev.weir.journal.codec.ResultFields;
import dev.weir.journal.schema.NewerFormatException;

/**
 * The output journal: window results and late events appended, in the engine's order, to the journal's
 * {@code results} Chronicle Queue, each in one document with the source offset it covers
 * ({@link ResultEncoder}, {@link LateEventEncoder}). The index of an output document is its output position.
 * <p>
 * One appender at a time, in any process, may append to a journal's outputs: the first append (or
 * {@link #openForAppend}) takes the journal's {@code results.lock} ({@link AppendLock}) and
 * {@link #close()} releases it; a second appender is refused with {@link JournalRefusedException}.
 * Readers take no lock.
 * <p>
 * Appending allocates nothing. A read cursor ({@link #seekAfter(long)}, {@link #next(OutputConsumer)})
 * reads stored outputs in order, so recovery can compare what it reproduces with what is already there.
 * Not thread-safe: one owner thread per instance.
 */
public final class OutputJournal implements AutoCloseable
{
    /** The output position before the first output. */
    public static final long NONE = -1;

    private final JournalDirectory directory;
    /** An upper bound of an output document's bytes. */
    private static final int OUTPUT_BYTES = 128;

    private final SingleChronicleQueue queue;
    private AppendLock lock;
    private ExcerptAppender appender;
    private final AppendReserve reserve;
    private ExcerptTailer cursor;
    private long lastReadIndex = NONE;

    private final ResultEncoder resultEncoder = new ResultEncoder();
    private final LateEventEncoder lateEncoder = new LateEventEncoder();
    private final OutputDecoder decoder = new OutputDecoder();
    private final OutputDecoder scanDecoder = new OutputDecoder();

    private OutputJournal(final JournalDirectory directory, final SingleChronicleQueue queue)
    {
        this.directory = directory;
        this.queue = queue;
        this.reserve = new AppendReserve(queue.file().toPath());
    }

    /**
     * @param directory the journal whose output journal to open.
     * @return the output journal.
     */
    public static OutputJournal open(final JournalDirectory directory)
    {
        return new OutputJournal(directory, JournalQueues.open(directory, directory.resultsQueue()));
    }

    /**
     * Open the output journal to append to it: its single-appender lock is taken now, not at the first
     * append, so a second writer is refused before it does any work.
     *
     * @param directory the journal whose output journal to open.
     * @return the output journal, holding the lock until closed.
     * @throws JournalRefusedException if another appender holds it.
     */
    public static OutputJournal openForAppend(final JournalDirectory directory)
    {
        final AppendLock held = AppendLock.acquire(directory, directory.pipelineRoot(), "results");
        try
        {
            final OutputJournal output = open(directory);
            output.lock = held;
            return output;
        }
        catch (final RuntimeException ex)
        {
            held.close();
            throw ex;
        }
    }

    /**
     * Append a result.
     *
     * @param result        the result's fields.
     * @param withAggregate true to store its user aggregation's value with it.
     * @return the output position of the result.
     */
    public long appendResult(final ResultFields result, final boolean withAggregate)
    {
        return appendResult(result, withAggregate ? 1 : 0);
    }

    /**
     * Append a result with the values of its user aggregations.
     *
     * @param result     the result's fields.
     * @param aggregates how many of its aggregations' values to store with it, 0 to
     *                   {@link ResultEncoder#MAX_AGGREGATES} ({@code result.aggregate(0 .. aggregates - 1)}).
     * @return the output position of the result.
     */
    public long appendResult(final ResultFields result, final int aggregates)
    {
        final ExcerptAppender a = appender();
        try
        {
            try (DocumentContext dc = a.writingDocument())
            {
                reserve.before(dc, a, Math.max(OUTPUT_BYTES, ResultEncoder.length(aggregates)));
                resultEncoder.wrap(dc.wire().bytes(), aggregates).copy(result);
            }
        }
        catch (final RuntimeException ex)
        {
            throw directory.rollCycle().translateAppendFailure(ex, directory.resultsQueue());
        }
        return a.lastIndexAppended();
    }

    /**
     * Append a late event.
     *
     * @param late the late event's fields, copied.
     * @return the output position of the late event.
     */
    public long appendLate(final LateFields late)
    {
        final ExcerptAppender a = appender();
        try
        {
            try (DocumentContext dc = a.writingDocument())
            {
                reserve.before(dc, a, OUTPUT_BYTES);
                lateEncoder.wrap(dc.wire().bytes()).eventId(late.eventId()).eventTime(late.eventTime()).value(late.value())
                    .offset(late.offset()).keyId(late.keyId());
            }
        }
        catch (final RuntimeException ex)
        {
            throw directory.rollCycle().translateAppendFailure(ex, directory.resultsQueue());
        }
        return a.lastIndexAppended();
    }

    /**
     * Position the read cursor just after the output at {@code position}, or at the first output when
     * {@code position} is {@link #NONE}.
     *
     * @param position an output position, or {@link #NONE}.
     * @throws OffsetUnavailableException if the position lies before the oldest output still held (the cycle
     *                                    files that held it were deleted).
     * @throws IllegalStateException if there is no output at that position.
     */
    public void seekAfter(final long position)
    {
        final ExcerptTailer tailer = cursor();
        if (position == NONE)
        {
            tailer.toStart();
            lastReadIndex = NONE;
            return;
        }
        queue.refreshDirectoryListing(); // firstIndex() is stale after cycle files were deleted
        final long first = queue.firstIndex();
        if (first != Long.MAX_VALUE && position < first && position >= directory.rollCycle().offsetOf(1, 0))
        { // a position of a cycle before the oldest held: removed; a smaller number names no position at all
            throw new OffsetUnavailableException("output journal " + queue.file(), position, first);
        }
        if (!tailer.moveToIndex(position))
        {
            throw new IllegalStateException("output journal " + queue.file() + " has no output at position " + position);
        }
        try (DocumentContext dc = tailer.readingDocument())
        {
            if (!dc.isPresent())
            {
                throw new IllegalStateException("output journal " + queue.file() + " has no output at position " + position);
            }
            lastReadIndex = dc.index();
        }
    }

    /**
     * Read the next stored output at the cursor.
     *
     * @param consumer receives it.
     * @return the type read ({@link DocumentType#RESULT} or {@link DocumentType#LATE_EVENT}), or 0 at the end.
     */
    public int next(final OutputConsumer consumer)
    {
        final ExcerptTailer tailer = cursor();
        while (true)
        {
            try (DocumentContext dc = tailer.readingDocument())
            {
                if (!dc.isPresent())
                {
                    return 0;
                }
                lastReadIndex = dc.index();
                final int type = wrap(decoder, dc);
                if (type != 0)
                {
                    consumer.onOutput(decoder);
                    return type;
                }
            }
        }
    }

    /**
     * @return the output position of the last document the cursor read, or {@link #NONE}.
     */
    public long lastReadPosition()
    {
        return lastReadIndex;
    }

    /**
     * @return the position of the last output in the journal, or {@link #NONE} if it holds none (read through
     *         with a fresh cursor; the read cursor does not move).
     */
    public long lastPosition()
    {
        long last = NONE;
        try (ExcerptTailer tailer = queue.createTailer())
        {
            while (true)
            {
                try (DocumentContext dc = tailer.readingDocument())
                {
                    if (!dc.isPresent())
                    {
                        return last;
                    }
                    if (wrap(scanDecoder, dc) != 0)
                    {
                        last = dc.index();
                    }
                }
            }
        }
    }

    /**
     * Read every output from the start with a fresh cursor.
     *
     * @param consumer receives each output in order.
     * @return how many outputs were read.
     */
    public long readAll(final OutputConsumer consumer)
    {
        long read = 0;
        try (ExcerptTailer tailer = queue.createTailer())
        {
            while (true)
            {
                try (DocumentContext dc = tailer.readingDocument())
                {
                    if (!dc.isPresent())
                    {
                        return read;
                    }
                    if (wrap(scanDecoder, dc) != 0)
                    {
                        consumer.onOutput(scanDecoder);
                        read++;
                    }
                }
            }
        }
    }

    /**
     * Read the stored outputs from one position (or the oldest) up to another, in order (the outputs a
     * retention step is about to remove), with a tailer of its own: the read cursor does not move.
     *
     * @param from     the first position to read, or {@link #NONE} (or a position no longer held) for the oldest.
     * @param to       the first position not to read.
     * @param consumer receives each output.
     * @return the outputs read.
     */
    public long readBetween(final long from, final long to, final OutputConsumer consumer)
    {
        long read = 0;
        try (ExcerptTailer tailer = queue.createTailer())
        {
            if (from == NONE || !tailer.moveToIndex(from))
            {
                tailer.toStart();
            }
            while (true)
            {
                try (DocumentContext dc = tailer.readingDocument())
                {
                    if (!dc.isPresent() || dc.index() >= to)
                    {
                        return read;
                    }
                    if (dc.index() >= from && wrap(scanDecoder, dc) != 0)
                    {
                        consumer.onOutput(scanDecoder);
                        read++;
                    }
                }
            }
        }
    }

    /**
     * @return the document's type, wrapped in {@code into}, or 0 if it is no complete output document.
     * @throws NewerFormatException if its type code is above every one this build knows ({@link DocumentType#NEWEST_RESULTS}).
     */
    private int wrap(final OutputDecoder into, final DocumentContext dc)
    {
        final int type = into.wrap(dc.wire().bytes());
        if (type == 0 && DocumentType.peek(dc.wire().bytes()) > DocumentType.NEWEST_RESULTS)
        {
            throw new NewerFormatException("output document", directory.resultsQueue() + " position " + dc.index(),
                DocumentType.peek(dc.wire().bytes()), DocumentType.NEWEST_RESULTS);
        }
        return type;
    }

    /**
     * Close the read cursor, so that it no longer keeps the cycle file it stands in open (a file retention deleted
     * keeps its disk space while it is open): call it when done reading, e.g. once recovery verified the stored
     * outputs. A later {@link #seekAfter(long)} or {@link #next(OutputConsumer)} makes a new cursor, at the start.
     */
    public void closeCursor()
    {
        if (cursor != null)
        {
            cursor.close();
            cursor = null;
        }
    }

    /**
     * Hand the output journal to another thread: the next thread to use it becomes its owner. Call it
     * after the last use on the old thread, before the new thread starts using it.
     */
    public void handOff()
    {
        if (cursor != null)
        {
            cursor.singleThreadedCheckReset();
        }
        if (appender != null)
        {
            appender.singleThreadedCheckReset();
        }
    }

    /**
     * Force the output journal's files to disk (for the {@code sync} durability policy).
     */
    public void sync()
    {
        QueueSync.force(queue);
    }

    private ExcerptAppender appender()
    {
        if (appender == null)
        {
            if (lock == null)
            {
                lock = AppendLock.acquire(directory, directory.pipelineRoot(), "results");
            }
            appender = queue.createAppender();
        }
        return appender;
    }

    private ExcerptTailer cursor()
    {
        if (cursor == null)
        {
            cursor = queue.createTailer();
        }
        return cursor;
    }

    @Override
    public void close()
    {
        try
        {
            reserve.close();
            queue.close();
        }
        finally
        {
            if (lock != null)
            {
                lock.close();
            }
        }
    }
}
