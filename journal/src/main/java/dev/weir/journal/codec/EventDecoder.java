package dev.weir.journal.codec;

import net.openhft.chronicle.bytes.BytesIn;

import dev.weir.journal.schema.EventView;
import dev.weir.journal.schema.JournalSchema;

/**
 * Reads one event document (layout: {@link EventEncoder}, in an {@link EventShape}) in place: {@link #wrap}
 * checks the document at the read position of its bytes, the getters read its fields at their offsets.
 * The fixed fields allocate nothing; {@link #key()} and {@link #text} allocate their string. The read
 * position is left where it was. A reusable flyweight, valid while the document is, and the
 * {@link EventView} a {@link dev.weir.journal.JournalReader} hands over; not thread-safe: one owner thread.
 * <p>
 * Which string columns an {@link DocumentType#EVENT_NEW_KEY} event defines (so which strings follow its
 * fixed part) is told by the documents before it: in the default shape it is the key, always; in any
 * other shape, the reader of the trailers ({@link #text}, {@link #line}, {@link #unterminatedLength})
 * first calls {@link #newStrings} with what the journal defined before this event.
 * <p>
 * In a journal that gained columns ({@link JournalSchema#extend}), an event written before a column was added
 * reads that column's default ({@link EventShape#defaultOf}): {@link #longColumn} and {@link #stringId} give every
 * column of the shape whatever the event's {@link #generation()}. A decoder of a journal that never gained
 * columns pays one comparison per column read for that.
 * <p>
 * The journal's scan reads only the fixed fields of every event, once each, in order: {@link #read} does
 * that with sequential reads, which on a Chronicle queue's mapped bytes cost measurably less per event
 * than the flyweight's absolute reads (the scan's hot path; see {@link dev.weir.journal.JournalReader#poll}).
 */
public final class EventDecoder extends EventFieldsDecoder implements EventView
{
    /** {@link #newStrings} not called yet for an event that defines strings. */
    private static final long UNKNOWN = -1L;

    private final EventShape shape;
    private final StringBuilder skipped = new StringBuilder();
    private int type;
    /** The wrapped document's generation: 1 for {@link DocumentType#EVENT}, else the byte after the generation-1 part. */
    private int generation;
    /** The length of its fixed part: where its trailers start. */
    private int fixedLength;
    private long newColumns;
    private long line;
    private long unterminatedLength;
    private boolean trailerRead;

    /** A decoder of the default shape. */
    public EventDecoder()
    {
        this(EventShape.DEFAULT);
    }

    /**
     * @param shape the layout of the events it reads.
     */
    public EventDecoder(final EventShape shape)
    {
        this.shape = shape;
    }

    /**
     * @param in a document, at its read position.
     * @return true if it is an event document (with or without string definitions), now wrapped; false otherwise.
     */
    public boolean wrap(final BytesIn<?> in)
    {
        if (in.readRemaining() < shape.baseLength())
        {
            return false;
        }
        final int t = in.peekUnsignedByte();
        final long at = in.readPosition();
        final int generation;
        final int fixed;
        if (t == DocumentType.EVENT || t == DocumentType.EVENT_NEW_KEY)
        {
            generation = 1;
            fixed = shape.baseLength();
        }
        else if (t == DocumentType.EVENT_EXTENDED || t == DocumentType.EVENT_EXTENDED_NEW_KEY)
        {
            if (in.readRemaining() < shape.baseLength() + EventShape.EXTENSION_HEADER)
            {
                return false;
            }
            generation = in.readUnsignedByte(at + shape.baseLength());
            fixed = in.readUnsignedShort(at + shape.baseLength() + 1);
            if (generation < 2 || generation <= shape.generation() && fixed != shape.length(generation) || in.readRemaining() < fixed)
            {
                throw new IllegalStateException("a corrupt event document of generation " + generation + " and length " + fixed
                    + " in a journal of " + shape.schema() + " (" + in.readRemaining() + " bytes)");
            }
        }
        else
        {
            return false;
        }
        this.in = in;
        this.start = at;
        this.type = t;
        this.generation = generation;
        this.fixedLength = fixed;
        this.trailerRead = false;
        this.newColumns = !DocumentType.definesStrings(t) ? 0 : t == DocumentType.EVENT_NEW_KEY && shape.originalIsDefault() ? 1L : UNKNOWN;
        return true;
    }

    /**
     * Read the event document at the read position of {@code in}, if it is one of the default shape (or of a
     * journal created with it that gained columns: its generation-1 part), and hand its fixed fields to {@code consumer}; the key's string and the ingest trailers are not read. Unlike
     * {@link #wrap}, this consumes the fixed fields: the read position is left just after {@code key_id} (a
     * {@link net.openhft.chronicle.wire.DocumentContext} moves it to the document's end when closed).
     * Allocates nothing; stateless.
     *
     * @param in       a document, at its read position.
     * @param offset   the document's journal offset, handed to the consumer.
     * @param consumer receives the event's fields, on this thread.
     * @return true if it was an event document (with or without a key definition); false otherwise, the
     *         document then left unread.
     */
    public static boolean read(final BytesIn<?> in, final long offset, final EventConsumer consumer)
    {
        if (in.readRemaining() < EventEncoder.LENGTH)
        {
            return false;
        }
        if (!DocumentType.isEvent(in.peekUnsignedByte()))
        {
            return false;
        }
        // the layout's order: type, event_id, event_time, value, key_id
        in.readByte();
        final long eventId = in.readLong();
        final long eventTime = in.readLong();
        final long value = in.readLong();
        final int keyId = in.readInt();
        consumer.onEvent(offset, eventId, eventTime, keyId, value);
        return true;
    }

    /** @return the shape of the events it reads. */
    public EventShape shape()
    {
        return shape;
    }

    /**
     * @return true if the event defines at least one string id ({@link DocumentType#EVENT_NEW_KEY},
     *         {@link DocumentType#EVENT_EXTENDED_NEW_KEY}): in the default shape, its key.
     */
    public boolean hasKey()
    {
        return DocumentType.definesStrings(type);
    }

    /**
     * @return the wrapped event's generation: 1 for a document of the columns the journal was created with, else
     *         the generation of the journal's schema it was written in (it has the columns added up to it).
     */
    public int generation()
    {
        return generation;
    }

    /** @return the dense id of the event's key (default shape: the {@code key} column). */
    public int keyId()
    {
        return in.readInt(start + EventEncoder.KEY_ID);
    }

    @Override
    public long longColumn(final int column)
    {
        assert !shape.isString(column) : "column " + column + " is a string column";
        if (column >= shape.firstAdded() && shape.generationOf(column) > generation)
        {
            return shape.defaultOf(column); // added after the event was written
        }
        return in.readLong(start + shape.offset(column));
    }

    @Override
    public int stringId(final int column)
    {
        assert shape.isString(column) : "column " + column + " is not a string column";
        if (column >= shape.firstAdded() && shape.generationOf(column) > generation)
        {
            return (int)shape.defaultOf(column); // added after the event was written: its default's id
        }
        return in.readInt(start + shape.offset(column));
    }

    /**
     * Tell which string ids of the wrapped event are new, so which strings it carries: each string column
     * whose id {@code defined} has not seen. Needed before reading the trailers of an
     * {@link DocumentType#EVENT_NEW_KEY} event in a shape other than the default.
     *
     * @param defined what the documents before this one defined.
     * @return a mask of the columns the event defines: bit {@code c} for column {@code c}.
     */
    public long newStrings(final StringDefinitions defined)
    {
        if (newColumns == UNKNOWN)
        {
            long mask = 0;
            for (int s = 0; s < shape.stringColumns(); s++)
            {
                final int column = shape.stringColumn(s);
                if (shape.generationOf(column) > generation)
                {
                    break; // the event has no such column, nor any after it
                }
                final int id = stringId(column);
                if (shape.generationOf(column) > 1 ? id != 0 && !defined.isDefined(column, id) : !defined.isDefined(column, id))
                {
                    mask |= 1L << column;
                }
            }
            newColumns = mask;
        }
        return newColumns;
    }

    /**
     * @param column a column index.
     * @return true if the event defines that string column's id (its string follows the fixed part).
     */
    public boolean defines(final int column)
    {
        requireKnownNewStrings();
        return (newColumns & 1L << column) != 0;
    }

    /** @return the key's string if {@link #hasKey()} (default shape), else (or if it is unreadable) null. */
    public String key()
    {
        return shape.firstStringColumn() < 0 ? null : text(shape.firstStringColumn());
    }

    /**
     * @param column a string column's index.
     * @return the string the event defines for that column, or null if it defines none there.
     */
    public String text(final int column)
    {
        if (!hasKey() || !defines(column))
        {
            return null;
        }
        final long saved = in.readPosition();
        try
        {
            in.readPosition(start + fixedLength);
            skipStrings(newColumns & ((1L << column) - 1));
            return in.readUtf8();
        }
        finally
        {
            in.readPosition(saved);
        }
    }

    /** @return the input line the event came from, or -1 if it carries none. */
    public long line()
    {
        readTrailer();
        return line;
    }

    /** @return the length in bytes of an unterminated last line, or -1 if the line had a terminator or there is none. */
    public long unterminatedLength()
    {
        readTrailer();
        return unterminatedLength;
    }

    private void requireKnownNewStrings()
    {
        if (newColumns == UNKNOWN)
        {
            throw new IllegalStateException("which strings an event of " + shape.schema() + " defines is told by newStrings() first");
        }
    }

    private void skipStrings(final long columns)
    {
        for (long rest = columns; rest != 0; rest &= rest - 1)
        {
            skipped.setLength(0);
            in.readUtf8(skipped);
        }
    }

    private void readTrailer()
    {
        if (trailerRead)
        {
            return;
        }
        requireKnownNewStrings();
        if (generation > shape.generation() && hasKey())
        {
            throw new IllegalStateException("an event of generation " + generation + " read through the columns " + shape.schema()
                + " of generation " + shape.generation() + ": the journal gained columns since it was opened; open it again");
        }
        trailerRead = true;
        final long saved = in.readPosition();
        try
        {
            in.readPosition(start + fixedLength);
            skipStrings(newColumns);
            line = in.readRemaining() > 0 ? in.readStopBit() : -1;
            unterminatedLength = line >= 0 && in.readRemaining() > 0 ? in.readStopBit() : -1;
        }
        finally
        {
            in.readPosition(saved);
        }
    }
}
