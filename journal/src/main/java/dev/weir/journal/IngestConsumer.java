package dev.weir.journal;

import dev.weir.journal.codec.Heartbeat;
import dev.weir.journal.codec.IngestStartEncoder;

/**
 * Visitor of the documents of the events queue that tell where each input line went
 * ({@link IngestLog#scan}), called on the scanning thread.
 */
public interface IngestConsumer
{
    /**
     * @param offset      the document's offset.
     * @param source      the source identity.
     * @param firstLine   the line number of the first line that follows.
     * @param linesTagged true if the ingest's events carry their line number (see {@link IngestStartEncoder}).
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

    /**
     * A heartbeat ({@link Heartbeat}): no line of any ingest. Ignored by default.
     *
     * @param offset    the document's offset.
     * @param eventTime its event time, ms.
     * @param wallClock the wall clock of its append, epoch ms.
     */
    default void onHeartbeat(final long offset, final long eventTime, final long wallClock)
    {
    }

    /**
     * A table row: a line of the ingest it is in if it carries a line number (a table's ingest), else no line of
     * any ingest. Ignored by default.
     *
     * @param offset the document's offset.
     * @param table  its table's index.
     * @param line   the input line it came from, or -1 if it carries none.
     */
    default void onTableRow(final long offset, final int table, final long line)
    {
    }
}
