package dev.weir.journal.codec;

import net.openhft.chronicle.bytes.BytesIn;

import dev.weir.journal.schema.NewerFormatException;

/**
 * Reads one ingest-start document (layout: {@link IngestStartEncoder}). {@link #wrap} reads the source's
 * string (it allocates it); the read position is left where it was. A reusable flyweight, valid while the
 * document is; not thread-safe: one owner thread.
 */
public final class IngestStartDecoder
{
    private long firstLine;
    private String source;
    private int version;

    /**
     * @param in a document, at its read position.
     * @return true if it is an ingest start, now read; false otherwise.
     * @throws NewerFormatException if it is of a version above {@link IngestStartEncoder#VERSION}.
     */
    public boolean wrap(final BytesIn<?> in)
    {
        if (DocumentType.peek(in) != DocumentType.INGEST_START)
        {
            return false;
        }
        final long saved = in.readPosition();
        try
        {
            in.readSkip(1);
            firstLine = in.readLong();
            source = in.readUtf8();
            version = in.readRemaining() > 0 ? in.readUnsignedByte() : 0;
            if (version > IngestStartEncoder.VERSION)
            {
                throw new NewerFormatException("ingest start", "an ingest start of the events queue (source " + source + ")", version,
                    IngestStartEncoder.VERSION);
            }
        }
        finally
        {
            in.readPosition(saved);
        }
        return true;
    }

    /** @return the line number of the first line that follows. */
    public long firstLine()
    {
        return firstLine;
    }

    /** @return the identity of the source. */
    public String source()
    {
        return source;
    }

    /** @return true if the ingest's events carry their line number (see {@link IngestStartEncoder}). */
    public boolean linesTagged()
    {
        return version >= IngestStartEncoder.LINES_TAGGED;
    }

    /** @return its version: the byte after the source, or 0 if it has none (written before lines were tagged). */
    public int version()
    {
        return version;
    }
}
