package dev.weir.journal.codec;

import net.openhft.chronicle.bytes.BytesIn;

import dev.weir.journal.schema.NewerFormatException;

/**
 * The type codes of the journal's documents: the first byte of every document of the {@code events}
 * queue ({@link #EVENT}, {@link #EVENT_NEW_KEY}, {@link #EVENT_EXTENDED}, {@link #EVENT_EXTENDED_NEW_KEY}, {@link #INGEST_START}, {@link #REJECTED_LINE}, {@link #HEARTBEAT}, {@link #TABLE_ROW}) and of the
 * {@code results} queue ({@link #RESULT}, {@link #LATE_EVENT}, {@link #RESULT_UPDATE}, {@link #RESULT_EARLY}, {@link #RESULT_BATCH}). The codes are part of the file format:
 * never renumber them. Each type has one encoder and one decoder ({@link EventEncoder}/{@link EventDecoder},
 * {@link ResultEncoder}/{@link ResultDecoder}, {@link LateEventEncoder}/{@link LateEventDecoder},
 * {@link IngestStartEncoder}/{@link IngestStartDecoder}, {@link RejectedLineEncoder}/{@link RejectedLineDecoder},
 * {@link Heartbeat}, {@link TableRowEncoder}/{@link TableRowDecoder}).
 * <p>
 * A document's type code is also the version of its layout: a changed layout takes a new code above every
 * code used so far. Each queue has its newest code: {@link #NEWEST_EVENTS} for the {@code events} queue and
 * {@link #NEWEST_RESULTS} for the {@code results} queue. A reader of either queue refuses a code above its queue's
 * newest ({@link NewerFormatException}) rather than skip a document it cannot read; it passes over, as before, the
 * documents of known codes it has no use for (an ingest start, a rejected line, a table row). A {@link #TABLE_ROW}
 * is written only in a journal whose marker has version 4: a Weir that reads versions 2 and 3 only never meets one. The journal marker's version
 * covers the queues as a whole.
 * Constants only; thread-safe.
 */
public final class DocumentType
{
    /** An event whose string ids (in the default schema, its key) are already defined. */
    public static final byte EVENT = 1;
    /** A window result, with or without a user aggregation's value. */
    public static final byte RESULT = 2;
    /** The start of an ingest of a source at a given line. */
    public static final byte INGEST_START = 3;
    /** An input line that is not a valid event. */
    public static final byte REJECTED_LINE = 4;
    /** A late (side-output) event. */
    public static final byte LATE_EVENT = 5;
    /**
     * An event that uses a string id first: followed by the strings of the string columns whose ids are new
     * (in the default schema, the key's string), which define those ids (see {@link EventEncoder}).
     */
    public static final byte EVENT_NEW_KEY = 6;
    /** A heartbeat: an event time the watermark may advance to, at its offset; not an event (see {@link Heartbeat}). */
    public static final byte HEARTBEAT = 7;
    /** An update row of a window result ({@link ResultKind#UPDATE}): the layout of {@link #RESULT}. */
    public static final byte RESULT_UPDATE = 8;
    /** The early row of a window result ({@link ResultKind#EARLY}): the layout of {@link #RESULT}. */
    public static final byte RESULT_EARLY = 9;
    /**
     * An event of a journal that gained columns, of a generation from 2 on, whose string ids are already defined:
     * the layout of {@link #EVENT}, then the generation, the fixed length and the added columns (see {@link EventEncoder}).
     */
    public static final byte EVENT_EXTENDED = 10;
    /** An {@link #EVENT_EXTENDED} that uses a string id first: followed by the strings, as {@link #EVENT_NEW_KEY} is. */
    public static final byte EVENT_EXTENDED_NEW_KEY = 11;
    /** A row of a reference table (a version of one key, or a tombstone): not an event (see {@link TableRowEncoder}). */
    public static final byte TABLE_ROW = 12;

    /**
     * Several events in one document, in a journal of batched documents only ({@link dev.weir.journal.JournalOffsets#SLOTTED}):
     * the events of slots 0 to N-1, each in the layout of a single event document (see {@code EventBatchEncoder}).
     */
    public static final byte EVENT_BATCH = 13;
    /**
     * Several results (and late events) in one document of the {@code results} queue, in a journal of batched
     * documents only: each in the layout of its single document (see {@link ResultBatchEncoder}).
     */
    public static final byte RESULT_BATCH = 14;

    /** The highest type code of the {@code results} queue this build knows: a higher one was written by a newer Weir. */
    public static final int NEWEST_RESULTS = RESULT_BATCH;
    /** The highest type code of the {@code events} queue this build knows: a higher one was written by a newer Weir. */
    public static final int NEWEST_EVENTS = TABLE_ROW;
    /** The format name a refused document of the {@code events} queue is named by. */
    static final String EVENTS_DOCUMENT = "events document";

    private DocumentType()
    {
    }

    /**
     * @param type a type code.
     * @return true if it is an event's: {@link #EVENT}, {@link #EVENT_NEW_KEY}, {@link #EVENT_EXTENDED} or {@link #EVENT_EXTENDED_NEW_KEY}.
     */
    public static boolean isEvent(final int type)
    {
        return type == EVENT || type == EVENT_NEW_KEY || type == EVENT_EXTENDED || type == EVENT_EXTENDED_NEW_KEY;
    }

    /**
     * @param type an event's type code.
     * @return true if the event defines at least one string id ({@link #EVENT_NEW_KEY} or {@link #EVENT_EXTENDED_NEW_KEY}).
     */
    public static boolean definesStrings(final int type)
    {
        return type == EVENT_NEW_KEY || type == EVENT_EXTENDED_NEW_KEY;
    }

    /**
     * Refuse a document of the {@code events} queue whose type code is above {@link #NEWEST_EVENTS}. A reader calls it
     * for a document it has not recognised, so the events it reads pay nothing for it.
     *
     * @param type   the document's type code ({@link #peek}).
     * @param queue  the events queue, named in the message.
     * @param offset the document's offset.
     * @throws NewerFormatException if the code is above {@link #NEWEST_EVENTS}.
     */
    public static void refuseNewerEvent(final int type, final Object queue, final long offset)
    {
        if (type > NEWEST_EVENTS)
        {
            throw new NewerFormatException(EVENTS_DOCUMENT, queue + " offset " + offset, type, NEWEST_EVENTS);
        }
    }

    /**
     * @param in a document, at its read position.
     * @return its type code, without consuming it, or -1 if it is empty.
     */
    public static int peek(final BytesIn<?> in)
    {
        return in.readRemaining() < 1 ? -1 : in.peekUnsignedByte();
    }
}
