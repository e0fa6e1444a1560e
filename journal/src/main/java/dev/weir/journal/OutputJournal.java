package dev.weir.journal;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import dev.weir.journal.codec.DocumentType;
import dev.weir.journal.codec.LateEventEncoder;
import dev.weir.journal.codec.LateFields;
import dev.weir.journal.codec.OutputDecoder;
import dev.weir.journal.codec.ResultBatchDecoder;
import dev.weir.journal.codec.ResultBatchEncoder;
import dev.weir.journal.codec.ResultEncoder;
import dev.weir.journal.codec.ResultFields;
import dev.weir.journal.schema.NewerFormatException;

/**
 * The output journal: window results and late events appended, in the engine's order, to the journal's
 * {@code results} Chronicle Queue with the source offset each covers ({@link ResultEncoder}, {@link LateEventEncoder}).
 * Every output has an output position: stable, ordered, user-visible, spoken by checkpoints, deliveries and retention.
 * <p>
 * In a journal of single-record documents ({@link JournalOffsets#INDEXED}, marker versions 2 to 4) each output is one
 * document, written when appended, and its position is the document's queue index. In a journal of batched documents
 * ({@link JournalOffsets#SLOTTED}) the outputs appended are held until {@link #flush()} (or until
 * {@value JournalOffsets#MAX_SLOTS} are held) and then written as one document: a {@link DocumentType#RESULT_BATCH}
 * ({@link ResultBatchEncoder}), or the single document of the only one held. The position of the output of slot
 * {@code s} of the document at index {@code i} is {@code (i << 6) | s}. The engine flushes at the end of each batch of
 * events it applies (a result never waits for more) and before a checkpoint records the output position
 * ({@link #lastAppendedPosition()}), so the outputs a checkpoint covers are stored when it is.
 * <p>
 * One appender at a time, in any process, may append to a journal's outputs: the first append (or
 * {@link #openForAppend}) takes the journal's {@code results.lock} ({@link AppendLock}) and
 * {@link #close()} releases it; a second appender is refused with {@link JournalRefusedException}.
 * Readers take no lock.
 * <p>
 * Appending allocates nothing. A read cursor ({@link #seekAfter(long)}, {@link #next(OutputConsumer)})
 * reads stored outputs in order, one at a time, from any position, inside a batch too, so recovery can compare what it
 * reproduces with what is already there, whatever documents hold it.
 * Not thread-safe: one owner thread per instance.
 */
public final class OutputJournal implements AutoCloseable
{
    /** The output position before the first output. */
    public static final long NONE = -1;
    /**
     * What {@link #appendResult} and {@link #appendLate} return for an output held for the next document of a journal
     * of batched documents: its position is known once flushed ({@link #lastAppendedPosition()}).
     */
    public static final long PENDING = -2;

    private final JournalDirectory directory;
    private final JournalOffsets offsets;
    /** An upper bound of an output document's bytes. */
    private static final int OUTPUT_BYTES = 128;

    private final SingleChronicleQueue queue;
    private AppendLock lock;
    private ExcerptAppender appender;
    private final AppendReserve reserve;
    private long lastAppended = NONE;

    private ExcerptTailer cursor;
    private long lastReadPosition = NONE;
    /** The batch the cursor stands in, copied out of its document: its outputs after the last read are served next. */
    private Bytes<?> cursorBatch;
    private final ResultBatchDecoder cursorEntries = new ResultBatchDecoder();
    private long cursorIndex = NONE;

    private final ResultEncoder resultEncoder = new ResultEncoder();
    private final LateEventEncoder lateEncoder = new LateEventEncoder();
    /** The outputs held for the next document, in a journal of batched documents; made at the first append. */
    private ResultBatchEncoder held;
    private final OutputDecoder decoder = new OutputDecoder();
    private final OutputDecoder scanDecoder = new OutputDecoder();
    private final ResultBatchDecoder scanEntries = new ResultBatchDecoder();

    private OutputJournal(final JournalDirectory directory, final SingleChronicleQueue queue)
    {
        this.directory = directory;
        this.offsets = directory.offsets();
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
     * @return how this journal's output positions map to its documents.
     */
    public JournalOffsets offsets()
    {
        return offsets;
    }

    /**
     * Append a result.
     *
     * @param result        the result's fields.
     * @param withAggregate true to store its user aggregation's value with it.
     * @return the output position of the result, or {@link #PENDING} if it is held for the next document.
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
     * @return the output position of the result, or {@link #PENDING} if it is held for the next document.
     */
    public long appendResult(final ResultFields result, final int aggregates)
    {
        if (offsets.batched())
        {
            held().result(aggregates).copy(result);
            return PENDING;
        }
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
        lastAppended = a.lastIndexAppended();
        return lastAppended;
    }

    /**
     * Append a late event.
     *
     * @param late the late event's fields, copied.
     * @return the output position of the late event, or {@link #PENDING} if it is held for the next document.
     */
    public long appendLate(final LateFields late)
    {
        if (offsets.batched())
        {
            held().late().eventId(late.eventId()).eventTime(late.eventTime()).value(late.value()).offset(late.offset())
                .keyId(late.keyId());
            return PENDING;
        }
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
        lastAppended = a.lastIndexAppended();
        return lastAppended;
    }

    /**
     * Write the outputs held as one document (a {@link DocumentType#RESULT_BATCH}, or the single document of the only
     * one): nothing to do if none is held, as always in a journal of single-record documents. Allocates nothing.
     */
    public void flush()
    {
        final ResultBatchEncoder batch = held;
        if (batch == null || batch.count() == 0)
        {
            return;
        }
        final int count = batch.count();
        final ExcerptAppender a = appender();
        try
        {
            try (DocumentContext dc = a.writingDocument())
            {
                final long length = batch.length();
                reserve.before(dc, a, Math.max(OUTPUT_BYTES, length));
                final Bytes<?> source = count == 1 ? batch.single() : batch.document();
                dc.wire().bytes().write(source, source.readPosition(), source.readRemaining());
            }
        }
        catch (final RuntimeException ex)
        {
            throw directory.rollCycle().translateAppendFailure(ex, directory.resultsQueue());
        }
        finally
        {
            batch.clear(); // written, or rolled back and lost with the run that fails now
        }
        lastAppended = offsets.offset(a.lastIndexAppended(), count - 1);
    }

    /**
     * @return the number of outputs appended but not yet written ({@link #flush()}): always 0 in a journal of
     *         single-record documents.
     */
    public int heldOutputs()
    {
        return held == null ? 0 : held.count();
    }

    /**
     * @return the output position of the last output this instance wrote (outputs held for the next document are
     *         not written yet), or {@link #NONE}.
     */
    public long lastAppendedPosition()
    {
        return lastAppended;
    }

    private ResultBatchEncoder held()
    {
        ResultBatchEncoder batch = held;
        if (batch == null)
        {
            batch = new ResultBatchEncoder();
            held = batch;
        }
        else if (batch.count() == JournalOffsets.MAX_SLOTS)
        {
            flush();
        }
        return batch;
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
        leaveBatch();
        if (position == NONE)
        {
            tailer.toStart();
            lastReadPosition = NONE;
            return;
        }
        final long index = offsets.index(position);
        final int slot = offsets.slot(position);
        queue.refreshDirectoryListing(); // firstIndex() is stale after cycle files were deleted
        final long first = queue.firstIndex();
        if (first != Long.MAX_VALUE && index < first && index >= directory.rollCycle().offsetOf(1, 0))
        { // a position of a cycle before the oldest held: removed; a smaller number names no position at all
            throw new OffsetUnavailableException("output journal " + queue.file(), position, offsets.offset(first, 0));
        }
        if (position < 0 || !tailer.moveToIndex(index))
        {
            throw noOutputAt(position);
        }
        try (DocumentContext dc = tailer.readingDocument())
        {
            if (!dc.isPresent())
            {
                throw noOutputAt(position);
            }
            final Bytes<?> in = dc.wire().bytes();
            if (DocumentType.peek(in) == DocumentType.RESULT_BATCH && offsets.batched())
            {
                enterBatch(dc.index(), in);
                if (!cursorEntries.skipTo(slot + 1))
                {
                    leaveBatch();
                    throw noOutputAt(position);
                }
            }
            else if (slot != 0)
            {
                throw noOutputAt(position);
            }
        }
        lastReadPosition = position;
    }

    private IllegalStateException noOutputAt(final long position)
    {
        return new IllegalStateException("output journal " + queue.file() + " has no output at position " + position);
    }

    /**
     * Read the next stored output at the cursor.
     *
     * @param consumer receives it.
     * @return the type read ({@link DocumentType#RESULT}, {@link DocumentType#RESULT_UPDATE},
     *         {@link DocumentType#RESULT_EARLY} or {@link DocumentType#LATE_EVENT}), or 0 at the end.
     */
    public int next(final OutputConsumer consumer)
    {
        if (cursorIndex != NONE && cursorEntries.hasNext())
        {
            return nextInBatch(consumer);
        }
        final ExcerptTailer tailer = cursor();
        while (true)
        {
            try (DocumentContext dc = tailer.readingDocument())
            {
                if (!dc.isPresent())
                {
                    return 0;
                }
                final Bytes<?> in = dc.wire().bytes();
                if (DocumentType.peek(in) == DocumentType.RESULT_BATCH)
                {
                    checkBatched(dc.index());
                    enterBatch(dc.index(), in);
                }
                else
                {
                    final int type = wrap(decoder, dc);
                    if (type != 0)
                    {
                        lastReadPosition = offsets.offset(dc.index(), 0);
                        consumer.onOutput(decoder);
                        return type;
                    }
                    continue;
                }
            }
            if (cursorEntries.hasNext())
            {
                return nextInBatch(consumer);
            }
            leaveBatch();
        }
    }

    private int nextInBatch(final OutputConsumer consumer)
    {
        final int slot = cursorEntries.slot();
        final int type = cursorEntries.next(decoder);
        lastReadPosition = offsets.offset(cursorIndex, slot);
        if (type == 0)
        {
            throw unreadableEntry(offsets.offset(cursorIndex, slot));
        }
        if (!cursorEntries.hasNext())
        {
            cursorIndex = NONE; // the copy stays valid until the next batch is entered: the consumer reads it now
        }
        consumer.onOutput(decoder);
        return type;
    }

    private void enterBatch(final long index, final Bytes<?> in)
    {
        Bytes<?> copy = cursorBatch;
        if (copy == null)
        {
            copy = Bytes.allocateElasticDirect(ResultBatchEncoder.MAX_LENGTH);
            cursorBatch = copy;
        }
        copy.clear();
        copy.write(in, in.readPosition(), in.readRemaining());
        cursorEntries.wrap(copy, 0, copy.writePosition());
        cursorIndex = index;
    }

    private void leaveBatch()
    {
        cursorIndex = NONE;
        if (cursorBatch != null)
        {
            cursorEntries.wrap(cursorBatch, 0, 0);
        }
    }

    /**
     * @return the output position of the last output the cursor read (or sought after), or {@link #NONE}.
     */
    public long lastReadPosition()
    {
        return lastReadPosition;
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
                    final Bytes<?> in = dc.wire().bytes();
                    if (DocumentType.peek(in) == DocumentType.RESULT_BATCH)
                    {
                        checkBatched(dc.index());
                        final int count = scanEntries.wrap(in);
                        if (count > 0)
                        {
                            last = offsets.offset(dc.index(), count - 1);
                        }
                    }
                    else if (wrap(scanDecoder, dc) != 0)
                    {
                        last = offsets.offset(dc.index(), 0);
                    }
                }
            }
        }
    }

    /**
     * Read every output from the start with a fresh cursor: the outputs of a batch in a tight loop over its entries.
     *
     * @param consumer receives each output in order.
     * @return how many outputs were read.
     */
    public long readAll(final OutputConsumer consumer)
    {
        return readBetween(NONE, Long.MAX_VALUE, consumer);
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
            if (from < 0 || !tailer.moveToIndex(offsets.index(from)))
            {
                tailer.toStart();
            }
            while (true)
            {
                try (DocumentContext dc = tailer.readingDocument())
                {
                    if (!dc.isPresent())
                    {
                        return read;
                    }
                    final long index = dc.index();
                    final Bytes<?> in = dc.wire().bytes();
                    if (DocumentType.peek(in) == DocumentType.RESULT_BATCH)
                    {
                        checkBatched(index);
                        final ResultBatchDecoder entries = scanEntries;
                        final int count = entries.wrap(in);
                        for (int slot = 0; slot < count; slot++)
                        {
                            final long position = offsets.offset(index, slot);
                            if (position >= to)
                            {
                                return read;
                            }
                            if (entries.next(scanDecoder) == 0)
                            {
                                throw unreadableEntry(position);
                            }
                            if (position >= from)
                            {
                                consumer.onOutput(scanDecoder);
                                read++;
                            }
                        }
                    }
                    else
                    {
                        final long position = offsets.offset(index, 0);
                        if (position >= to)
                        {
                            return read;
                        }
                        if (position >= from && wrap(scanDecoder, dc) != 0)
                        {
                            consumer.onOutput(scanDecoder);
                            read++;
                        }
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
            throw new NewerFormatException("output document", directory.resultsQueue() + " position "
                + offsets.offset(dc.index(), 0), DocumentType.peek(dc.wire().bytes()), DocumentType.NEWEST_RESULTS);
        }
        return type;
    }

    /** A batch document in a journal of single-record documents names outputs no position can: refuse it. */
    private void checkBatched(final long index)
    {
        if (!offsets.batched())
        {
            throw new IllegalStateException("output journal " + queue.file() + " holds a batch of outputs at index " + index
                + " but its journal (marker version " + directory.formatVersion() + ") has one output per document");
        }
    }

    private IllegalStateException unreadableEntry(final long position)
    {
        return new IllegalStateException("output journal " + queue.file() + " holds no complete output at position " + position);
    }

    /**
     * Close the read cursor, so that it no longer keeps the cycle file it stands in open (a file retention deleted
     * keeps its disk space while it is open): call it when done reading, e.g. once recovery verified the stored
     * outputs. A later {@link #seekAfter(long)} or {@link #next(OutputConsumer)} makes a new cursor, at the start.
     */
    public void closeCursor()
    {
        leaveBatch();
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
        if (cursorBatch != null)
        {
            cursorBatch.singleThreadedCheckReset();
        }
        if (held != null)
        {
            held.handOff();
        }
    }

    /**
     * Write the outputs held ({@link #flush()}) and force the output journal's files to disk (for the {@code sync}
     * durability policy).
     */
    public void sync()
    {
        flush();
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

    /**
     * Write the outputs held ({@link #flush()}), then close the queue and let go of the appender's lock.
     */
    @Override
    public void close()
    {
        try
        {
            flush();
        }
        finally
        {
            try
            {
                reserve.close();
                queue.close();
            }
            finally
            {
                if (held != null)
                {
                    held.close();
                }
                if (cursorBatch != null)
                {
                    cursorBatch.releaseLast();
                }
                if (lock != null)
                {
                    lock.close();
                }
            }
        }
    }
}
