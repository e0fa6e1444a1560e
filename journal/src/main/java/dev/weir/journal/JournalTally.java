package dev.weir.journal;

import net.openhft.chronicle.bytes.BytesIn;

import dev.weir.journal.codec.DocumentType;
import dev.weir.journal.codec.EventShape;
import dev.weir.journal.codec.Heartbeat;
import dev.weir.journal.schema.NewerFormatException;

/**
 * What the documents of an events queue count up to one offset: events, rejected lines, ingest starts and
 * heartbeats, and the offsets of the first and last document and event ({@link IngestLog.Counts}), kept as documents are
 * read ({@link #count(BytesIn, long, int, Object)}) or appended ({@link #event}, {@link #rejected}, ...), so that
 * {@code weir inspect} need not rescan the journal (with a {@link DictionarySnapshot}, only its tail).
 * <p>
 * A document is counted once: only if its offset is after {@link #countedThrough()}, so an appender's own
 * documents, counted when appended, are skipped when its dictionaries' scan reads them back. Documents are
 * classified as {@link IngestLog#scan} classifies them. A table row is a document (it moves the first and last
 * document offsets) but is not counted here: its count is not in the {@link DictionarySnapshot}'s format, so
 * {@link IngestLog#counts} counts table rows by a scan. Allocates nothing. Not thread-safe: the owner
 * thread of its {@link StringDictionaries}.
 */
final class JournalTally
{
    static final int EVENTS = 0;
    static final int REJECTED = 1;
    static final int INGESTS = 2;
    static final int HEARTBEATS = 3;
    static final int FIRST_OFFSET = 4;
    static final int LAST_OFFSET = 5;
    static final int FIRST_EVENT_OFFSET = 6;
    static final int LAST_EVENT_OFFSET = 7;
    /** The number of values in {@link #values()}. */
    static final int SIZE = 8;

    private final long[] values = {0, 0, 0, 0, -1, -1, -1, -1};
    private long countedThrough = Long.MIN_VALUE;

    /**
     * Start from the counts of a snapshot.
     *
     * @param counted  the values, as {@link #values()} returns them.
     * @param through  the offset of the last document they cover.
     */
    void restore(final long[] counted, final long through)
    {
        System.arraycopy(counted, 0, values, 0, SIZE);
        countedThrough = through;
    }

    /** @return the offset of the last document counted (classified or not), or {@link Long#MIN_VALUE}. */
    long countedThrough()
    {
        return countedThrough;
    }

    /** @return the counts, indexed by {@link #EVENTS} .. {@link #LAST_EVENT_OFFSET} (a copy). */
    long[] values()
    {
        return values.clone();
    }

    /** @return the counts as {@code weir inspect} shows them. */
    IngestLog.Counts counts()
    {
        return new IngestLog.Counts(values[EVENTS], values[REJECTED], values[INGESTS], values[FIRST_OFFSET], values[LAST_OFFSET],
            values[FIRST_EVENT_OFFSET], values[LAST_EVENT_OFFSET], values[HEARTBEATS], 0);
    }

    /**
     * Count a document read from the queue, if it is after {@link #countedThrough()}.
     *
     * @param in          the document, at its read position (left where it was).
     * @param offset      its offset.
     * @param eventLength the fixed length of a generation-1 event document in the journal's shape ({@link EventShape#baseLength()}).
     * @param queue       the events queue, named if the document is refused.
     * @throws NewerFormatException if its type code is above {@link DocumentType#NEWEST_EVENTS}.
     */
    void count(final BytesIn<?> in, final long offset, final int eventLength, final Object queue)
    {
        if (offset <= countedThrough)
        {
            return;
        }
        countedThrough = offset;
        if (in.readRemaining() < 1)
        {
            return;
        }
        final int type = in.peekUnsignedByte();
        if (type == DocumentType.INGEST_START)
        {
            add(INGESTS, offset);
        }
        else if (type == DocumentType.REJECTED_LINE)
        {
            add(REJECTED, offset);
        }
        else if (type == DocumentType.HEARTBEAT)
        {
            if (in.readRemaining() >= Heartbeat.LENGTH)
            {
                add(HEARTBEATS, offset);
            }
        }
        else if (DocumentType.isEvent(type))
        {
            if (in.readRemaining() >= eventLength)
            {
                addEvent(offset);
            }
        }
        else if (type == DocumentType.TABLE_ROW)
        {
            seen(offset);
        }
        else
        {
            DocumentType.refuseNewerEvent(type, queue, offset);
        }
    }

    /** @param offset an event appended at this offset. */
    void event(final long offset)
    {
        if (offset > countedThrough)
        {
            countedThrough = offset;
            addEvent(offset);
        }
    }

    private void addEvent(final long offset)
    {
        add(EVENTS, offset);
        if (values[FIRST_EVENT_OFFSET] < 0)
        {
            values[FIRST_EVENT_OFFSET] = offset;
        }
        values[LAST_EVENT_OFFSET] = offset;
    }

    /** @param offset a rejected line appended at this offset. */
    void rejected(final long offset)
    {
        appended(REJECTED, offset);
    }

    /** @param offset an ingest start appended at this offset. */
    void ingest(final long offset)
    {
        appended(INGESTS, offset);
    }

    /** @param offset a table row appended at this offset. */
    void tableRow(final long offset)
    {
        if (offset > countedThrough)
        {
            countedThrough = offset;
            seen(offset);
        }
    }

    /** @param offset a heartbeat appended at this offset. */
    void heartbeat(final long offset)
    {
        appended(HEARTBEATS, offset);
    }

    private void appended(final int which, final long offset)
    {
        if (offset > countedThrough)
        {
            countedThrough = offset;
            add(which, offset);
        }
    }

    private void add(final int which, final long offset)
    {
        values[which]++;
        seen(offset);
    }

    /** A document at this offset: the first and last document offsets move. */
    private void seen(final long offset)
    {
        if (values[FIRST_OFFSET] < 0)
        {
            values[FIRST_OFFSET] = offset;
        }
        values[LAST_OFFSET] = offset;
    }
}
