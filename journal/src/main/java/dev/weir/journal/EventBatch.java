package dev.weir.journal;

import net.openhft.chronicle.bytes.Bytes;
import org.agrona.collections.IntArrayList;

import dev.weir.journal.codec.EventBatchEncoder;

/**
 * The bulk appender of an {@link EventJournal} ({@link EventJournal#batch()}): events added to it are written up to
 * {@value JournalOffsets#MAX_SLOTS} to one {@link dev.weir.journal.codec.DocumentType#EVENT_BATCH} document, so that a
 * bulk load (an ingest) pays for one document per batch rather than per event.
 * <p>
 * Each add encodes its event into the batch's buffer at once (the same checks as {@link EventJournal#append(EventRow)}
 * and its siblings: an invalid event is refused before it is added) and returns its slot in the pending document. The
 * document is written when it holds {@value JournalOffsets#MAX_SLOTS} events or about {@value #FLUSH_BYTES} bytes, at
 * {@link #flush()}, and before any other document of the journal (a single {@link EventJournal#append}, an ingest start,
 * a rejected line, a heartbeat, a table row), at {@link EventJournal#sync()} and at {@link EventJournal#close()}: journal
 * order is add order. The event of slot {@code s} of a written document has the offset {@link #flush()} {@code + s}.
 * Nothing waits to fill a batch: events not flushed are simply not in the journal yet, and a crash loses them as it
 * would lose events not yet appended (a whole document is in the journal, or none of it). A string's definition travels
 * in the entry of the first event that uses it, as in single documents; if the document's write fails (a full disk),
 * the strings it would have defined are known as not written again, so the next event that uses one defines it.
 * <p>
 * In a journal of single documents (marker versions 2 to 4, {@link JournalOffsets#INDEXED}) each add writes its event's
 * document at once (byte for byte what {@link EventJournal#append} writes), so older builds still read the journal;
 * nothing is ever pending there.
 * <p>
 * Allocates nothing per event once its buffer has grown. Not thread-safe: the journal's appending thread.
 */
public final class EventBatch
{
    /** A pending document of about this many bytes is written. */
    public static final int FLUSH_BYTES = 64 * 1024;

    private final EventJournal journal;
    private final boolean batched;
    private final EventBatchEncoder events = new EventBatchEncoder(FLUSH_BYTES + 16 * 1024);
    /** The (column, id) pairs of the strings the pending entries define ({@link EventJournal#KEY_MARK} for a key). */
    private final IntArrayList defined = new IntArrayList();
    private long lastOffset = -1;

    EventBatch(final EventJournal journal, final boolean batched)
    {
        this.journal = journal;
        this.batched = batched;
    }

    /**
     * Add an event to a journal of the default schema, its key already interned ({@link EventJournal#keyId}).
     *
     * @param eventId   the event's id.
     * @param eventTime the event's time, epoch ms, between 0 and {@link EventJournal#MAX_EVENT_TIME}.
     * @param keyId     the key's id.
     * @param value     the event's value.
     * @return its slot in the pending document (0 in a journal of single documents, where it is written at once).
     * @throws IllegalArgumentException if the time is out of range or the key id unknown.
     * @throws IllegalStateException    if the journal was not created with the default schema.
     */
    public int append(final long eventId, final long eventTime, final int keyId, final long value)
    {
        return addKeyed(eventId, eventTime, keyId, value, -1, -1);
    }

    /**
     * Add an event read from line {@code line} of the current ingest to a journal of the default schema (see
     * {@link EventJournal#appendIngested(long, long, long, int, long, long)}).
     *
     * @param line               the input line, &gt;= 0.
     * @param eventId            the event's id.
     * @param eventTime          the event's time.
     * @param keyId              the key's id.
     * @param value              the event's value.
     * @param unterminatedLength the line's length if it had no terminator, else -1.
     * @return its slot in the pending document.
     */
    public int appendIngested(final long line, final long eventId, final long eventTime, final int keyId, final long value,
        final long unterminatedLength)
    {
        if (line < 0)
        {
            throw new IllegalArgumentException("line must be >= 0: " + line);
        }
        return addKeyed(eventId, eventTime, keyId, value, line, unterminatedLength);
    }

    /**
     * As {@link #appendIngested(long, long, long, int, long, long)}, interning the key first.
     *
     * @return its slot in the pending document.
     */
    public int appendIngested(final long line, final long eventId, final long eventTime, final String key, final long value,
        final long unterminatedLength)
    {
        return appendIngested(line, eventId, eventTime, journal.keyId(key), value, unterminatedLength);
    }

    /**
     * Add a whole event ({@link EventJournal#row()}, every field set).
     *
     * @param row the journal's row.
     * @return its slot in the pending document.
     */
    public int append(final EventRow row)
    {
        return addRow(row, -1, -1);
    }

    /**
     * Add a whole event read from line {@code line} of the current ingest.
     *
     * @param row                the journal's row.
     * @param line               the input line, &gt;= 0.
     * @param unterminatedLength the line's length if it had no terminator, else -1.
     * @return its slot in the pending document.
     */
    public int appendIngested(final EventRow row, final long line, final long unterminatedLength)
    {
        if (line < 0)
        {
            row.take();
            throw new IllegalArgumentException("line must be >= 0: " + line);
        }
        return addRow(row, line, unterminatedLength);
    }

    /** @return the events added and not written yet. */
    public int pending()
    {
        return events.count();
    }

    /**
     * Write the pending events as one document, if there are any (a single event as its single document).
     *
     * @return the offset of the first event written (slot {@code s}'s is this plus {@code s}), or -1 if none was pending.
     */
    public long flush()
    {
        final int count = events.count();
        if (count == 0)
        {
            return -1;
        }
        try
        {
            // one event is written as its single document: the same offset (slot 0), a few bytes less
            final long first = count == 1 ? journal.writeSingle(events, 0) : journal.writeBatch(events);
            lastOffset = first + count - 1;
            return first;
        }
        catch (final RuntimeException | Error ex)
        {
            journal.unmarkWritten(defined);
            throw ex;
        }
        finally
        {
            events.reset();
            defined.clear();
        }
    }

    /** @return the offset of the last event this bulk appender wrote to the journal, or -1 if none. */
    public long lastOffset()
    {
        return lastOffset;
    }

    private int addKeyed(final long eventId, final long eventTime, final int keyId, final long value, final long line,
        final long unterminatedLength)
    {
        journal.requireDefaultSchema();
        final boolean newKey = journal.checkKeyed(eventTime, keyId);
        final Bytes<?> out = events.entry();
        journal.encodeKeyed(out, newKey, eventId, eventTime, keyId, value, line, unterminatedLength);
        final int slot = events.endEntry();
        if (newKey)
        {
            journal.keyDictionary().markWritten(keyId);
            defined.addInt(EventJournal.KEY_MARK);
            defined.addInt(keyId);
        }
        return added(slot);
    }

    private int addRow(final EventRow row, final long line, final long unterminatedLength)
    {
        final long textBytes = journal.checkRow(row);
        final Bytes<?> out = events.entry();
        journal.encodeRow(out, row, textBytes >= 0, line, unterminatedLength);
        final int slot = events.endEntry();
        if (textBytes >= 0)
        {
            journal.markRowWritten(row, defined);
        }
        return added(slot);
    }

    private int added(final int slot)
    {
        if (!batched)
        {
            try
            {
                lastOffset = journal.writeSingle(events, slot);
            }
            catch (final RuntimeException | Error ex)
            {
                journal.unmarkWritten(defined);
                throw ex;
            }
            finally
            {
                events.reset();
                defined.clear();
            }
        }
        else if (events.count() == JournalOffsets.MAX_SLOTS || events.length() >= FLUSH_BYTES)
        {
            flush();
        }
        return slot;
    }

    void close()
    {
        events.close();
    }
}
