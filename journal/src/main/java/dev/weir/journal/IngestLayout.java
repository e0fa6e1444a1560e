package dev.weir.journal;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;

/**
 * The documents an ingest writes into the {@code events} queue beside the events, so that where each
 * input line went is durable with the events themselves:
 * <ul>
 *   <li>{@link #TYPE_INGEST_START}: an ingest of a source begins here, at a given line; every document
 *   after it, up to the next ingest start, is exactly one line of that source, in order (an event or a
 *   rejected line). Fields: {@code byte type, long firstLine, utf8 source}.</li>
 *   <li>{@link #TYPE_REJECTED}: a line that is not a valid event. Fields:
 *   {@code byte type, long line, utf8 reason, utf8 content}.</li>
 * </ul>
 * Readers of events skip both. Stateless and thread-safe.
 */
public final class IngestLayout
{
    /** Document type of an ingest start. */
    public static final byte TYPE_INGEST_START = 3;
    /** Document type of a rejected line. */
    public static final byte TYPE_REJECTED = 4;

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
    }

    /**
     * @param out     where to write.
     * @param line    the line number.
     * @param reason  why it was rejected.
     * @param content the line as read.
     */
    public static void writeRejected(final BytesOut<?> out, final long line, final String reason, final String content)
    {
        out.writeByte(TYPE_REJECTED);
        out.writeLong(line);
        out.writeUtf8(reason);
        out.writeUtf8(content);
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
         * @param offset    the document's offset.
         * @param source    the source identity.
         * @param firstLine the line number of the first line that follows.
         */
        void onIngestStart(long offset, String source, long firstLine);

        /**
         * @param offset  the document's offset.
         * @param line    the line number.
         * @param reason  why it was rejected.
         * @param content the line as read.
         */
        void onRejected(long offset, long line, String reason, String content);

        /**
         * @param offset the offset of an event document.
         */
        void onEvent(long offset);
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
            consumer.onIngestStart(offset, in.readUtf8(), firstLine);
        }
        else if (type == TYPE_REJECTED)
        {
            in.readByte();
            final long line = in.readLong();
            final String reason = in.readUtf8();
            consumer.onRejected(offset, line, reason, in.readUtf8());
        }
        else if (type == EventLayout.TYPE_EVENT || type == EventLayout.TYPE_EVENT_NEW_KEY)
        {
            consumer.onEvent(offset);
        }
    }
}
