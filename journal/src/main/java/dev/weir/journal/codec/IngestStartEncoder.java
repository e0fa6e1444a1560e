package dev.weir.journal.codec;

import net.openhft.chronicle.bytes.Bytes;

/**
 * Writes one ingest-start document ({@link DocumentType#INGEST_START}): an ingest of a source begins here,
 * at a given line. {@link #wrap} reserves the fixed part, {@link #firstLine} fills it, {@link #source}
 * completes the document.
 * <pre>
 *   0  byte  type {@link DocumentType#INGEST_START}
 *   1  long  first_line    the line number of the first line that follows
 *   9  utf8  source        the identity of the source (see {@code SourceIdentity})
 *  ..  byte  lines_tagged  1, which is also the document's version ({@link #VERSION}; absent: version 0)
 * </pre>
 * With {@code lines_tagged} = 1 (every ingest since it was added), the lines of the ingest that follow are
 * the events that carry a line number ({@link EventEncoder#line}) and the rejected lines, up to the next
 * ingest start; untagged events in between were appended by something else and are no lines of it.
 * Without it (journals written before), every document up to the next ingest start is one line, in order.
 * Readers of events skip it. A reusable flyweight; not thread-safe: one owner thread.
 */
public final class IngestStartEncoder
{
    /** Length in bytes of the fixed part of an ingest start. */
    public static final int LENGTH = 1 + 8;
    /** Offset of the first line's number from the type byte. */
    private static final int FIRST_LINE = 1;
    /** The {@code lines_tagged} byte of every ingest start written now: version 1 of the document. */
    static final byte LINES_TAGGED = 1;
    /**
     * The version this build writes, and the newest it reads: the byte after the source ({@code lines_tagged}), 0
     * when it is absent. A later layout writes a higher value there; a reader refuses one above its own.
     */
    public static final int VERSION = LINES_TAGGED;

    private Bytes<?> out;
    private long start;

    /**
     * @param out where to write.
     * @return this.
     */
    public IngestStartEncoder wrap(final Bytes<?> out)
    {
        this.out = out;
        this.start = out.writePosition();
        out.writeSkip(LENGTH);
        out.writeByte(start, DocumentType.INGEST_START);
        return this;
    }

    /** @param firstLine the line number of the first line that follows. @return this. */
    public IngestStartEncoder firstLine(final long firstLine)
    {
        out.writeLong(start + FIRST_LINE, firstLine);
        return this;
    }

    /**
     * Write the source's identity and the {@code lines_tagged} byte: the end of the document.
     *
     * @param source the identity of the source.
     * @return this.
     */
    public IngestStartEncoder source(final String source)
    {
        out.writeUtf8(source);
        out.writeByte(LINES_TAGGED);
        return this;
    }
}
