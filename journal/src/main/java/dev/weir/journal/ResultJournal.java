package dev.weir.journal;

import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * The output journal: window results appended to the journal's {@code results} Chronicle Queue, each
 * in one document with the source offset it covers ({@link ResultLayout}).
 * <p>
 * Appending allocates nothing. {@link #readAll(ResultLayout.ResultConsumer)} reads every result from the
 * start with a fresh tailer. Not thread-safe: one owner thread per instance.
 */
public final class ResultJournal implements AutoCloseable
{
    private final SingleChronicleQueue queue;
    private ExcerptAppender appender;

    private ResultJournal(final SingleChronicleQueue queue)
    {
        this.queue = queue;
    }

    /**
     * @param directory the journal whose output journal to open.
     * @return the output journal.
     */
    public static ResultJournal open(final JournalDirectory directory)
    {
        return new ResultJournal(JournalQueues.open(directory, directory.resultsQueue()));
    }

    /**
     * Append one result.
     *
     * @param windowStart  inclusive window start.
     * @param windowEnd    exclusive window end.
     * @param keyId        key id.
     * @param count        count.
     * @param sum          sum.
     * @param min          min.
     * @param max          max.
     * @param version      version.
     * @param sourceOffset the source offset covered.
     * @return the output position (queue index) of the result.
     */
    public long append(
        final long windowStart,
        final long windowEnd,
        final int keyId,
        final long count,
        final long sum,
        final long min,
        final long max,
        final int version,
        final long sourceOffset)
    {
        if (appender == null)
        {
            appender = queue.createAppender();
        }
        try (DocumentContext dc = appender.writingDocument())
        {
            ResultLayout.write(dc.wire().bytes(), windowStart, windowEnd, keyId, count, sum, min, max, version, sourceOffset);
        }
        return appender.lastIndexAppended();
    }

    /**
     * Read every result from the start.
     *
     * @param consumer receives each result in output order.
     * @return how many results were read.
     */
    public long readAll(final ResultLayout.ResultConsumer consumer)
    {
        long read = 0;
        try (ExcerptTailer tailer = queue.createTailer())
        {
            while (true)
            {
                try (DocumentContext dc = tailer.readingDocument())
                {
                    if (!dc.isPresent())
                    {
                        return read;
                    }
                    if (ResultLayout.read(dc.wire().bytes(), consumer))
                    {
                        read++;
                    }
                }
            }
        }
    }

    @Override
    public void close()
    {
        queue.close();
    }
}
