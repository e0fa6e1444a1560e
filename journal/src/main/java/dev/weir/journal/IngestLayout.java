package dev.weir.journal;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;

/**
 * The documents an ingest writes into the {@code events} queue beside the events, so that where each
 * input line went is durable with the events themselves:
 * <ul>
 *   <li>{@link #TYPE_INGEST_START}: an ingest of a source begins here, at a given line. Fields:
 *   {@code byte type, long firstLine, utf8 source, byte linesTagged}. With {@code linesTagged} = 1
 *   (every ingest since it was added), the lines of the ingest that follow are the events that carry a
 *   line number ({@link EventLayout#writeLine}) and the rejected lines, up to the next ingest start;
 *   untagged events in between were appended by something else and are no lines of it. Without it
 *   (journals written before), every document up to the next ingest start is one line, in order.</li>
 *   <li>{@link #TYPE_REJECTED}: a line that is not a valid event. Fields:
 *   {@code byte type, long line, utf8 reason, utf8 content}, and, only for a last line that had no line
 *   terminator but was taken because its source was declared complete, {@code stop-bit length} (its
 *   length in bytes; an event carries it the same way, see {@link EventLayout}).</li>
 * </ul>
 * Readers of events skip both. Stateless and thread-safe.
 */
public final class IngestLayout
{
    /** Document type of an ingest start. */
    public static final byte TYPE_INGEST_START = 3;
    /** Document type of a rejected line. */
    public static final byte TYPE_REJECTED = 4;

    private static final byte LINES_TAGGED = 1;

    private IngestLayout()
    {
    }

    /**
     * @param out       where to write.
     * @param source    the identity of the source (see {@code SourceIdentity}).
     * @param firstLine the line number of the first line that follows.
     */
    public static void writeIngestStart(final BytesOut<?> out, final String source, final long firstLine)
    {
        out.writeByte(TYPE_INGEST_START);
        out.writeLong(firstLine);
        out.writeUtf8(source);
        out.writeByte(LINES_TAGGED);
    }

    /**
     * @param out     where to write.
     * @param line    the line number.
     * @param reason  why it was rejected.
     * @param content the line as read.
     * @param unterminatedLength the line's length in bytes if it had no line terminator, else -1.
     */
    public static void writeRejected(final BytesOut<?> out, final long line, final String reason, final String content, final long unterminatedLength)
    {
        out.writeByte(TYPE_REJECTED);
        out.writeLong(line);
        out.writeUtf8(reason);
        out.writeUtf8(content);
        if (unterminatedLength >= 0)
        {
            out.writeStopBit(unterminatedLength);
        }
    }

    /**
     * @param in a document.
     * @return its type byte, without consuming it, or -1 if it is empty.
     */
    public static int peekType(final BytesIn<?> in)
    {
        return in.readRemaining() < 1 ? -1 : in.peekUnsignedByte();
    }

    /**
     * Visitor of ingest documents.
     */
    public interface IngestConsumer
    {
        /**
         * @param offset      the document's offset.
         * @param source      the source identity.
         * @param firstLine   the line number of the first line that follows.
         * @param linesTagged true if the ingest's events carry their line number (see the type's doc).
         */
        void onIngestStart(long offset, String source, long firstLine, boolean linesTagged);

        /**
         * @param offset  the document's offset.
         * @param line    the line number.
         * @param reason  why it was rejected.
         * @param content the line as read.
         */
        void onRejected(long offset, long line, String reason, String content);

        /**
         * @param offset the offset of an event document.
         * @param line   the input line it came from, or -1 if it carries none.
         */
        void onEvent(long offset, long line);

        /**
         * Called after {@code onEvent} or {@code onRejected} for a line that had no line terminator and was
         * taken because its source was declared complete.
         *
         * @param offset the document's offset.
         * @param line   the line.
         * @param bytes  its length in bytes.
         */
        default void onUnterminated(final long offset, final long line, final long bytes)
        {
        }
    }

    /**
     * Read one document of the events queue for an {@link IngestConsumer}.
     *
     * @param in       the document.
     * @param offset   its offset.
     * @param consumer the visitor.
     */
    public static void visit(final BytesIn<?> in, final long offset, final IngestConsumer consumer)
    {
        final int type = peekType(in);
        if (type == TYPE_INGEST_START)
        {
            in.readByte();
            final long firstLine = in.readLong();
            final String source = in.readUtf8();
            consumer.onIngestStart(offset, source, firstLine, in.readRemaining() > 0 && in.readByte() == LINES_TAGGED);
        }
        else if (type == TYPE_REJECTED)
        {
            in.readByte();
            final long line = in.readLong();
            final String reason = in.readUtf8();
            consumer.onRejected(offset, line, reason, in.readUtf8());
            if (in.readRemaining() > 0)
            {
                consumer.onUnterminated(offset, line, in.readStopBit());
            }
        }
        else if (EventLayout.isEvent(in))
        {
            final long line = EventLayout.readLine(in);
            consumer.onEvent(offset, line);
            if (line >= 0 && in.readRemaining() > 0)
            {
                consumer.onUnterminated(offset, line, in.readStopBit());
            }
        }
    }
}
