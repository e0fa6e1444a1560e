package dev.weir.journal;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.TailerDirection;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import dev.weir.journal.codec.DocumentType;
import dev.weir.journal.codec.EventBatchDecoder;
import dev.weir.journal.codec.EventConsumer;
import dev.weir.journal.codec.EventDecoder;
import dev.weir.journal.codec.EventShape;
import dev.weir.journal.codec.Heartbeat;
import dev.weir.journal.codec.TableRowDecoder;
import dev.weir.journal.schema.EventView;
import dev.weir.journal.schema.JournalSchema;

/**
 * The read side of the event journal: reads events in order from any offset.
 * <p>
 * A reader starts at the first event, or at an offset given to {@link #seek(long)}, and each
 * {@link #poll(EventConsumer, int)} hands the next events to a consumer with primitive arguments, or
 * {@link #poll(EventViewConsumer, int)} as whole events ({@link EventView}: every column of the journal's
 * {@link JournalSchema}), allocating nothing per event. It sees events appended after it was opened, by this or another
 * process, so it can follow a live journal. If the journal gains columns meanwhile
 * ({@link JournalDirectory#openOrCreate(java.nio.file.Path, JournalSchema, JournalRollCycle)}), it reads on with the
 * columns it was opened with; a reader opened later reads every column, an event appended before a column was
 * added giving that column's default.
 * <p>
 * Table rows ({@link dev.weir.journal.codec.DocumentType#TABLE_ROW}) are handed to
 * {@link EventViewConsumer#onTableRow} by {@link #poll(EventViewConsumer, int)}, in journal order with the events; the
 * projected {@link #poll(EventConsumer, int)} passes over them. Once retention removed old cycles, the table rows of
 * the removed cycles that the {@link HistoryBase} holds are handed first, with their original offsets (below the
 * base's first offset), by a reader that reads from the start (not one {@link #seek sought} past the base's first
 * offset, nor {@link #seekAfter}): before the first document from the base's first offset on. A row of a table added
 * to the journal after this reader was opened is read with the table as the marker has it then.
 * <p>
 * Not thread-safe: one owner thread per reader.
 */
public final class JournalReader implements AutoCloseable
{
    private final JournalDirectory directory;
    /** How offsets map to the queue's documents. */
    private final JournalOffsets offsets;
    private final EventBatchDecoder batch = new EventBatchDecoder();
    /**
     * The slot to go on from in the next document read: above 0 after a {@link #seek} into a batch, or a poll that
     * stopped inside one (which then reads the same document again); a single document is passed over if it is above 0.
     */
    private int nextSlot;
    private final SingleChronicleQueue queue;
    private final ExcerptTailer tailer;
    private final EventShape shape;
    private final EventDecoder view;
    private final int keyColumn;
    private final int valueColumn;
    /** The first offset it may read: its journal's {@link HistoryBase}'s, or {@link Long#MIN_VALUE}. */
    private final long firstOffset;
    private final CurrentTables tables;
    /** True if the base holds table rows: then {@link #baseRows} are to be handed before the next document. */
    private final boolean baseHasRows;
    /** The base's table rows, once loaded; the index of the next to hand, or -1 if none are to be handed. */
    private HistoryBase baseRows;
    private TableRowDecoder baseDecoder;
    private int nextBaseRow;
    private long lastReadOffset = -1;
    private long lastTableRowRead = -1;
    private long rejectedRead;
    private long heartbeatsRead;

    private JournalReader(final JournalDirectory directory)
    {
        this.directory = directory;
        this.offsets = directory.offsets();
        final HistoryBase base = HistoryBase.header(directory);
        this.firstOffset = base == null ? Long.MIN_VALUE : base.first;
        this.baseHasRows = base != null && base.hasTableRows();
        this.nextBaseRow = baseHasRows ? 0 : -1;
        this.tables = new CurrentTables(directory);
        this.queue = JournalQueues.open(directory, directory.eventsQueue());
        this.tailer = queue.createTailer();
        if (firstOffset != Long.MIN_VALUE)
        {
            HistoryBase.moveTo(tailer, firstOffset, offsets);
        }
        this.shape = EventShape.of(directory.schema());
        this.view = new EventDecoder(shape);
        this.keyColumn = shape.firstStringColumn();
        this.valueColumn = shape.firstLongColumn();
    }

    /**
     * Open a reader positioned at the first event of a journal (at or after its {@link HistoryBase}'s first offset
     * when old cycles were removed: documents before it are never read).
     *
     * @param directory the journal.
     * @return the reader.
     */
    public static JournalReader open(final JournalDirectory directory)
    {
        return new JournalReader(directory);
    }

    /**
     * Position the reader so that the next event read is the one at {@code offset}, or the first one
     * after it if there is none at that exact offset.
     *
     * @param offset an offset previously returned by the journal.
     * @return this reader.
     * @throws OffsetUnavailableException if the offset lies before the oldest one the journal still holds (the
     *                                    cycle files that held it were deleted): reading on from the oldest would
     *                                    silently skip what lay between.
     * @throws IllegalArgumentException   if the offset lies inside the journal but names no document.
     */
    public JournalReader seek(final long offset)
    {
        final long first = checkAvailable(offset);
        nextBaseRow = baseHasRows && offset <= firstOffset ? 0 : -1;
        nextSlot = 0;
        if (offset < firstOffset || !tailer.moveToIndex(offsets.index(offset)))
        {
            if (offset < firstOffset || first == Long.MAX_VALUE || offsets.index(offset) <= first)
            {
                HistoryBase.moveTo(tailer, firstOffset, offsets); // from the start: the history base's first offset, if any
            }
            else
            {
                tailer.toEnd();
                final long end = tailer.index();
                if (offsets.index(offset) < end)
                {
                    throw new IllegalArgumentException("offset " + offset + " is not in journal " + directory);
                }
            }
        }
        else
        {
            nextSlot = offsets.slot(offset); // past the document's last slot: its next document
        }
        return this;
    }

    /**
     * Position the reader just after the event at {@code offset}.
     *
     * @param offset an offset previously read from this journal.
     * @return this reader.
     * @throws OffsetUnavailableException if the offset lies before the oldest one the journal still holds.
     */
    public JournalReader seekAfter(final long offset)
    {
        checkAvailable(offset);
        nextBaseRow = -1;
        if (!tailer.moveToIndex(offsets.index(offset)))
        {
            throw new IllegalArgumentException("offset " + offset + " is not in journal " + directory);
        }
        nextSlot = offsets.slot(offset) + 1;
        try (DocumentContext dc = tailer.readingDocument())
        {
            if (dc.isPresent())
            {
                lastReadOffset = offset;
                if (batch.wrap(dc.wire().bytes()) && nextSlot < batch.count())
                {
                    dc.rollbackOnClose(); // read on inside the batch
                }
                else
                {
                    nextSlot = 0;
                }
            }
        }
        return this;
    }

    /**
     * Refuse an offset before the oldest the journal still holds (its oldest cycle file's first, or the history
     * base's first offset when retention removed cycles). Only an offset that names a position of a cycle is
     * refused: a small number such as 0 or -1 (no cycle) still means "from the start", as it always did. The
     * listing is refreshed first: a queue instance's view of its oldest cycle goes stale when cycle files are
     * deleted, and one that still has a deleted file mapped would otherwise read from it.
     *
     * @return the oldest offset held, or {@link Long#MAX_VALUE} if the queue holds none.
     */
    private long checkAvailable(final long offset)
    {
        queue.refreshDirectoryListing();
        final long first = queue.firstIndex();
        final long oldest = Math.max(first == Long.MAX_VALUE ? Long.MIN_VALUE : offsets.offset(first, 0), firstOffset);
        if (offset < oldest && offset >= offsets.offset(directory.rollCycle().offsetOf(1, 0), 0))
        {
            throw new OffsetUnavailableException("journal " + directory, offset, oldest);
        }
        return first;
    }

    /**
     * Read up to {@code limit} events and heartbeats, by their fields. In a schema other than the default, an event's key
     * id is its first string column's id and its value its first long or decimal column's (0 if there is none).
     *
     * @param consumer receives each event, on this thread.
     * @param limit    the most events and heartbeats to pass in this call.
     * @return how many events and heartbeats were passed (a heartbeat goes to {@link EventConsumer#onHeartbeat});
     *         0 when the reader has reached the current end of the journal.
     */
    public int poll(final EventConsumer consumer, final int limit)
    {
        nextBaseRow = -1;
        int read = 0;
        while (read < limit)
        {
            try (DocumentContext dc = tailer.readingDocument())
            {
                if (!dc.isPresent())
                {
                    break;
                }
                final long index = dc.index();
                final BytesIn<?> bytes = dc.wire().bytes();
                if (batch.wrap(bytes))
                {
                    read += pollBatch(dc, index, consumer, limit - read);
                    continue;
                }
                final long offset = offsets.offset(index, 0);
                if (nextSlot != 0)
                {
                    nextSlot = 0; // sought past this single document's only slot
                    continue;
                }
                if (shape.originalIsDefault() ? EventDecoder.read(bytes, offset, consumer) : readProjected(bytes, offset, consumer))
                {
                    read++;
                }
                else if (Heartbeat.is(bytes))
                {
                    heartbeatsRead++;
                    consumer.onHeartbeat(offset, Heartbeat.eventTime(bytes));
                    read++;
                }
                else
                {
                    passOver(bytes, offset);
                }
                lastReadOffset = offset;
            }
        }
        return read;
    }

    /**
     * Read up to {@code limit} events of the wrapped batch, from {@link #nextSlot} on; if some are left, the document is
     * read again by the next poll.
     */
    private int pollBatch(final DocumentContext dc, final long index, final EventConsumer consumer, final int limit)
    {
        batch.skipTo(nextSlot);
        int read = 0;
        final boolean projected = !shape.originalIsDefault();
        while (read < limit && batch.next())
        {
            final BytesIn<?> bytes = dc.wire().bytes();
            final long offset = offsets.offset(index, batch.slot());
            if (!(projected ? readProjected(bytes, offset, consumer) : EventDecoder.read(bytes, offset, consumer)))
            {
                throw new IllegalStateException("journal " + directory + " holds a batch with an entry that is no event at offset " + offset);
            }
            read++;
            lastReadOffset = offset;
        }
        leaveBatch(dc);
        return read;
    }

    /** After reading events of a batch: read the rest of it next, or go on from the next document. */
    private void leaveBatch(final DocumentContext dc)
    {
        final int left = batch.count() - batch.slot() - 1;
        if (batch.slot() < batch.count() && left > 0)
        {
            nextSlot = batch.slot() + 1;
            batch.end();
            dc.rollbackOnClose();
        }
        else
        {
            nextSlot = 0;
            batch.end();
        }
    }

    /**
     * Read up to {@code limit} whole events, as {@link #poll(EventConsumer, int)} does: the same events, offsets
     * and rejected lines passed over, the same heartbeats passed on; and the table rows, handed to
     * {@link EventViewConsumer#onTableRow} (those the history base holds first, see above).
     *
     * @param consumer receives each event and table row, on this thread; the view is valid during the call only.
     * @param limit    the most events, heartbeats and table rows to pass in this call.
     * @return how many events, heartbeats and table rows were passed; 0 when the reader has reached the current end of
     *         the journal.
     */
    public int poll(final EventViewConsumer consumer, final int limit)
    {
        int read = nextBaseRow < 0 ? 0 : handBaseRows(consumer, limit);
        while (read < limit)
        {
            try (DocumentContext dc = tailer.readingDocument())
            {
                if (!dc.isPresent())
                {
                    break;
                }
                final long index = dc.index();
                final BytesIn<?> bytes = dc.wire().bytes();
                if (batch.wrap(bytes))
                {
                    read += pollBatch(dc, index, consumer, limit - read);
                    continue;
                }
                final long offset = offsets.offset(index, 0);
                if (nextSlot != 0)
                {
                    nextSlot = 0; // sought past this single document's only slot
                    continue;
                }
                if (view.wrap(bytes))
                {
                    consumer.onEvent(offset, view);
                    read++;
                }
                else if (Heartbeat.is(bytes))
                {
                    heartbeatsRead++;
                    consumer.onHeartbeat(offset, Heartbeat.eventTime(bytes));
                    read++;
                }
                else
                {
                    final TableRowDecoder row = tables.wrap(bytes);
                    if (row != null)
                    {
                        consumer.onTableRow(offset, row);
                        lastTableRowRead = offset;
                        read++;
                    }
                    else
                    {
                        passOver(bytes, offset);
                    }
                }
                lastReadOffset = offset;
            }
        }
        return read;
    }

    /** The whole events of a batch: as {@link #pollBatch(DocumentContext, long, EventConsumer, int)}. */
    private int pollBatch(final DocumentContext dc, final long index, final EventViewConsumer consumer, final int limit)
    {
        batch.skipTo(nextSlot);
        int read = 0;
        while (read < limit && batch.next())
        {
            final long offset = offsets.offset(index, batch.slot());
            if (!view.wrap(dc.wire().bytes()))
            {
                throw new IllegalStateException("journal " + directory + " holds a batch with an entry that is no event at offset " + offset);
            }
            consumer.onEvent(offset, view);
            read++;
            lastReadOffset = offset;
        }
        leaveBatch(dc);
        return read;
    }

    /**
     * Hand up to {@code limit} of the table rows the history base holds, from the next one on (loading them first).
     *
     * @return how many were handed.
     */
    private int handBaseRows(final EventViewConsumer consumer, final int limit)
    {
        if (baseRows == null)
        {
            baseRows = HistoryBase.load(directory);
            baseDecoder = new TableRowDecoder(JournalDirectory.open(directory.root()).tables());
        }
        int handed = 0;
        while (handed < limit && nextBaseRow < baseRows.rowOffsets.length)
        {
            baseDecoder.wrap(Bytes.wrapForRead(baseRows.rowDocuments.get(nextBaseRow)));
            consumer.onTableRow(baseRows.rowOffsets[nextBaseRow++], baseDecoder);
            handed++;
        }
        if (nextBaseRow == baseRows.rowOffsets.length)
        {
            nextBaseRow = -1;
        }
        return handed;
    }

    /** A document that is neither an event nor a heartbeat: counted if it is a rejected line, refused if it is newer. */
    private void passOver(final BytesIn<?> bytes, final long offset)
    {
        final int type = DocumentType.peek(bytes);
        if (type == DocumentType.REJECTED_LINE)
        {
            rejectedRead++;
        }
        else if (type == DocumentType.TABLE_ROW)
        {
            lastTableRowRead = offset;
        }
        else
        {
            DocumentType.refuseNewerEvent(type, directory.eventsQueue(), offset);
        }
    }

    private boolean readProjected(final BytesIn<?> bytes, final long offset, final EventConsumer consumer)
    {
        if (!view.wrap(bytes))
        {
            return false;
        }
        consumer.onEvent(offset, view.eventId(), view.eventTime(), keyColumn < 0 ? 0 : view.stringId(keyColumn),
            valueColumn < 0 ? 0 : view.longColumn(valueColumn));
        return true;
    }

    /**
     * @return the schema of the journal's events.
     */
    public JournalSchema schema()
    {
        return shape.schema();
    }

    /**
     * Hand the reader to another thread: the next thread to use it becomes its owner. Call it after the
     * last use on the old thread, before the new thread starts using it.
     */
    public void handOff()
    {
        tailer.singleThreadedCheckReset();
    }

    /**
     * @return rejected-line records passed over by either poll so far.
     */
    public long rejectedRead()
    {
        return rejectedRead;
    }

    /**
     * @return the offset of the last table row read from the events queue by either poll (handed on or passed over),
     *         or -1 if none.
     */
    public long lastTableRowRead()
    {
        return lastTableRowRead;
    }

    /**
     * @return heartbeats passed to a consumer by either poll so far.
     */
    public long heartbeatsRead()
    {
        return heartbeatsRead;
    }

    /**
     * @return the offset of the last document read, or -1 if none has been read.
     */
    public long lastReadOffset()
    {
        return lastReadOffset;
    }

    /**
     * @return the cycle this reader stands in (that of the last document it read, or of the next one).
     */
    public int cycle()
    {
        return tailer.cycle();
    }

    /**
     * @return true if the journal has a cycle newer than the one this reader stands in: it keeps that cycle's
     *         file open until it reads on (a file retention deleted keeps its disk space while it is open).
     */
    public boolean behindNewestCycle()
    {
        return tailer.cycle() < queue.lastCycle();
    }

    /**
     * @return the offset of the first event in the journal, or -1 if it is empty.
     */
    public long firstOffset()
    {
        queue.refreshDirectoryListing(); // firstIndex() is stale after cycle files were deleted
        final long first = queue.firstIndex();
        return first == Long.MAX_VALUE ? -1 : offsets.offset(first, 0);
    }

    /**
     * @return the offset of the last event in the journal, or -1 if it is empty.
     */
    public long lastOffset()
    {
        final ExcerptTailer probe = queue.createTailer().direction(TailerDirection.BACKWARD).toEnd();
        try (DocumentContext dc = probe.readingDocument())
        {
            return !dc.isPresent() ? -1 : offsets.offset(dc.index(), batch.wrap(dc.wire().bytes()) ? batch.count() - 1 : 0);
        }
        finally
        {
            probe.close();
        }
    }

    /**
     * Force the events queue's files to disk: every document appended so far, by any appender, so at
     * least every event this reader has read survives a machine crash. Milliseconds. Unlike the rest of
     * this reader, callable from any thread while the reader is open (it only opens the queue's files).
     */
    public void sync()
    {
        QueueSync.force(queue);
    }

    @Override
    public void close()
    {
        tailer.close();
        queue.close();
    }
}
