package dev.weir.journal;

import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Reads back what ingests recorded in a journal: where each source was ingested up to, and which of
 * its lines were rejected, so that an interrupted ingest resumes after the last line it appended and
 * the rejected-lines file can be rebuilt from the journal at any time.
 * <p>
 * Each method scans the events queue from the start with its own tailer. Stateless between calls;
 * thread-safe as long as each call is on one thread.
 */
public final class IngestLog
{
    private IngestLog()
    {
    }

    /**
     * What a journal holds, counted over the whole events queue.
     *
     * @param events     event documents.
     * @param rejected   rejected lines.
     * @param ingests    ingest starts.
     * @param firstOffset offset of the first document, or -1.
     * @param lastOffset  offset of the last document, or -1.
     * @param firstEventOffset offset of the first event, or -1.
     * @param lastEventOffset  offset of the last event, or -1.
     */
    public record Counts(long events, long rejected, long ingests, long firstOffset, long lastOffset, long firstEventOffset, long lastEventOffset)
    {
    }

    /**
     * @param directory a journal.
     * @return for every source ever ingested, in order of its latest ingest: the line number of its next
     *         line to ingest (one past the last line recorded for it).
     */
    public static java.util.LinkedHashMap<String, Long> nextLines(final JournalDirectory directory)
    {
        final java.util.LinkedHashMap<String, Long> next = new java.util.LinkedHashMap<>();
        final String[] current = {null};
        scan(directory, new IngestLayout.IngestConsumer()
        {
            @Override
            public void onIngestStart(final long offset, final String s, final long firstLine)
            {
                current[0] = s;
                next.remove(s);
                next.put(s, firstLine);
            }

            @Override
            public void onRejected(final long offset, final long line, final String reason, final String content)
            {
                advance();
            }

            @Override
            public void onEvent(final long offset)
            {
                advance();
            }

            private void advance()
            {
                if (current[0] != null)
                {
                    next.merge(current[0], 1L, Long::sum);
                }
            }
        });
        return next;
    }

    /**
     * @param directory a journal.
     * @param source    a source identity.
     * @return the line number of the next line of {@code source} to ingest: one past the last line
     *         recorded for it, or 0 if it was never ingested.
     */
    public static long nextLine(final JournalDirectory directory, final String source)
    {
        final long[] next = {0};
        final boolean[] inBlock = {false};
        scan(directory, new IngestLayout.IngestConsumer()
        {
            @Override
            public void onIngestStart(final long offset, final String s, final long firstLine)
            {
                inBlock[0] = source.equals(s);
                if (inBlock[0])
                {
                    next[0] = firstLine;
                }
            }

            @Override
            public void onRejected(final long offset, final long line, final String reason, final String content)
            {
                if (inBlock[0])
                {
                    next[0]++;
                }
            }

            @Override
            public void onEvent(final long offset)
            {
                if (inBlock[0])
                {
                    next[0]++;
                }
            }
        });
        return next[0];
    }

    /**
     * Visit every rejected line recorded for a source, in order.
     *
     * @param directory a journal.
     * @param source    a source identity.
     * @param consumer  receives {@code onRejected} for each; other callbacks are not made.
     */
    public static void rejected(final JournalDirectory directory, final String source, final IngestLayout.IngestConsumer consumer)
    {
        final boolean[] inBlock = {false};
        scan(directory, new IngestLayout.IngestConsumer()
        {
            @Override
            public void onIngestStart(final long offset, final String s, final long firstLine)
            {
                inBlock[0] = source.equals(s);
            }

            @Override
            public void onRejected(final long offset, final long line, final String reason, final String content)
            {
                if (inBlock[0])
                {
                    consumer.onRejected(offset, line, reason, content);
                }
            }

            @Override
            public void onEvent(final long offset)
            {
            }
        });
    }

    /**
     * @param directory a journal.
     * @return counts over its events queue.
     */
    public static Counts counts(final JournalDirectory directory)
    {
        final long[] c = {0, 0, 0, -1, -1, -1, -1};
        scan(directory, new IngestLayout.IngestConsumer()
        {
            @Override
            public void onIngestStart(final long offset, final String s, final long firstLine)
            {
                c[2]++;
                seen(offset);
            }

            @Override
            public void onRejected(final long offset, final long line, final String reason, final String content)
            {
                c[1]++;
                seen(offset);
            }

            @Override
            public void onEvent(final long offset)
            {
                c[0]++;
                seen(offset);
                if (c[5] < 0)
                {
                    c[5] = offset;
                }
                c[6] = offset;
            }

            private void seen(final long offset)
            {
                if (c[3] < 0)
                {
                    c[3] = offset;
                }
                c[4] = offset;
            }
        });
        return new Counts(c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
    }

    /**
     * Visit every document of the events queue in order.
     *
     * @param directory a journal.
     * @param consumer  the visitor.
     */
    public static void scan(final JournalDirectory directory, final IngestLayout.IngestConsumer consumer)
    {
        try (SingleChronicleQueue queue = JournalQueues.open(directory, directory.eventsQueue());
             ExcerptTailer tailer = queue.createTailer())
        {
            while (true)
            {
                try (DocumentContext dc = tailer.readingDocument())
                {
                    if (!dc.isPresent())
                    {
                        return;
                    }
                    IngestLayout.visit(dc.wire().bytes(), dc.index(), consumer);
                }
            }
        }
    }
}
