package dev.weir.journal;

import java.nio.file.Path;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import dev.weir.journal.codec.DocumentType;
import dev.weir.journal.codec.EventDecoder;
import dev.weir.journal.codec.EventShape;
import dev.weir.journal.codec.Heartbeat;
import dev.weir.journal.codec.IngestStartDecoder;
import dev.weir.journal.codec.IngestStartEncoder;
import dev.weir.journal.codec.RejectedLineDecoder;
import dev.weir.journal.codec.StringDefinitions;
import dev.weir.journal.codec.TableRowDecoder;
import dev.weir.journal.schema.JournalSchema;

/**
 * Reads back what ingests recorded in a journal: where each source was ingested up to, and which of
 * its lines were rejected, so that an interrupted ingest resumes after the last line it appended and
 * the rejected-lines file can be rebuilt from the journal at any time. A source's progress is told by
 * the documents of its own ingests only (see {@link IngestStartEncoder}): events appended
 * by another appender between two ingests do not move it. A table row that carries a line number (a table's ingest,
 * {@link TableAppender#upsertIngested}) is a line of its ingest as an event is; one appended otherwise is no line.
 * <p>
 * Each method scans the events queue from the start with its own tailer. Once old cycles were removed, it starts
 * from the journal's {@link HistoryBase} (the progress, counts and dictionaries before its first offset B) and
 * scans from B: so {@link #rejected} and {@link #scan} only see the documents from B on. Stateless between calls;
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
     * @param heartbeats heartbeats (no events: see {@link Heartbeat}).
     * @param tableRows  table rows, tombstones included (no events); those of removed cycles that the history base
     *                   holds (one per key and valid-from time) are counted.
     */
    public record Counts(
        long events, long rejected, long ingests, long firstOffset, long lastOffset, long firstEventOffset, long lastEventOffset, long heartbeats,
        long tableRows)
    {
        /**
         * @param tableRows the table rows.
         * @return these counts with that count of table rows.
         */
        Counts withTableRows(final long tableRows)
        {
            return new Counts(events, rejected, ingests, firstOffset, lastOffset, firstEventOffset, lastEventOffset, heartbeats, tableRows);
        }
    }

    /**
     * @param directory a journal.
     * @return for every source ever ingested, in order of its latest ingest: the line number of its next
     *         line to ingest (one past the last line recorded for it).
     */
    public static java.util.LinkedHashMap<String, Long> nextLines(final JournalDirectory directory)
    {
        final java.util.LinkedHashMap<String, Long> next = new java.util.LinkedHashMap<>();
        final LineCount count = new LineCount();
        final HistoryBase base = HistoryBase.load(directory);
        if (base != null)
        {
            base.sources.forEach((s, state) -> next.put(s, state[0]));
            if (base.openSource != null)
            {
                count.start(base.openSource, base.openNext, base.openTagged);
            }
        }
        scan(directory, base, new IngestConsumer()
        {
            @Override
            public void onIngestStart(final long offset, final String s, final long firstLine, final boolean linesTagged)
            {
                count.start(s, firstLine, linesTagged);
                next.remove(s);
                next.put(s, firstLine);
            }

            @Override
            public void onRejected(final long offset, final long line, final String reason, final String content)
            {
                if (count.line(line))
                {
                    next.put(count.source, count.next);
                }
            }

            @Override
            public void onEvent(final long offset, final long line)
            {
                if (count.line(line))
                {
                    next.put(count.source, count.next);
                }
            }

            @Override
            public void onTableRow(final long offset, final int table, final long line)
            {
                if (line >= 0 && count.line(line))
                {
                    next.put(count.source, count.next);
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
        final Long next = nextLines(directory).get(source);
        return next == null ? 0 : next;
    }

    /**
     * @param directory a journal.
     * @param source    a source identity.
     * @return {line, bytes} of the last line of {@code source} that was taken as complete without its
     *         terminator (recorded with the line's own document), or null if there is none.
     */
    public static long[] unterminated(final JournalDirectory directory, final String source)
    {
        final long[][] found = {null};
        final boolean[] inBlock = {false};
        final HistoryBase base = HistoryBase.load(directory);
        if (base != null)
        {
            final long[] state = base.sources.get(source);
            found[0] = state == null || state[1] < 0 ? null : new long[] {state[1], state[2]};
            inBlock[0] = source.equals(base.openSource);
        }
        scan(directory, base, new IngestConsumer()
        {
            @Override
            public void onIngestStart(final long offset, final String s, final long firstLine, final boolean linesTagged)
            {
                inBlock[0] = source.equals(s);
            }

            @Override
            public void onRejected(final long offset, final long line, final String reason, final String content)
            {
            }

            @Override
            public void onEvent(final long offset, final long line)
            {
            }

            @Override
            public void onUnterminated(final long offset, final long line, final long bytes)
            {
                if (inBlock[0])
                {
                    found[0] = new long[] {line, bytes};
                }
            }
        });
        return found[0];
    }

    /**
     * How far the ingest block being scanned got. A block whose ingest start says its lines are tagged
     * counts only the documents that carry a line number (rejected lines, tagged events); an older block
     * counts every event and rejected line, one per line. Scanning thread only.
     */
    private static final class LineCount
    {
        String source;
        long next;
        boolean tagged;

        void start(final String s, final long firstLine, final boolean linesTagged)
        {
            source = s;
            next = firstLine;
            tagged = linesTagged;
        }

        /**
         * @param line the line number a document carries, or -1.
         * @return true if the document is a line of the current block (and {@link #next} moved).
         */
        boolean line(final long line)
        {
            if (source == null)
            {
                return false;
            }
            if (!tagged)
            {
                next++;
                return true;
            }
            if (line < 0)
            {
                return false; // appended by something else between two lines of this ingest
            }
            next = Math.max(next, line + 1);
            return true;
        }
    }

    /**
     * Visit every rejected line recorded for a source, in order: from the {@link HistoryBase}'s first offset on
     * if old cycles were removed (the rejected lines before it are gone with them).
     *
     * @param directory a journal.
     * @param source    a source identity.
     * @param consumer  receives {@code onRejected} for each; other callbacks are not made.
     */
    public static void rejected(final JournalDirectory directory, final String source, final IngestConsumer consumer)
    {
        final HistoryBase base = HistoryBase.load(directory);
        final boolean[] inBlock = {base != null && source.equals(base.openSource)};
        scan(directory, base, new IngestConsumer()
        {
            @Override
            public void onIngestStart(final long offset, final String s, final long firstLine, final boolean linesTagged)
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
            public void onEvent(final long offset, final long line)
            {
            }
        });
    }

    /**
     * @param directory a journal.
     * @return counts over its events queue: from its dictionary snapshot and the documents after it (see
     *         {@link StringDictionaries#counts()}); its table rows, if it has tables, by a scan of it ({@link #tableRows}).
     */
    public static Counts counts(final JournalDirectory directory)
    {
        final Counts counts;
        try (StringDictionaries dictionaries = StringDictionaries.open(directory))
        {
            counts = dictionaries.counts();
        }
        if (JournalDirectory.open(directory.root()).tables().isEmpty())
        {
            return counts;
        }
        long rows = 0;
        for (final long table : tableRows(directory))
        {
            rows += table;
        }
        return counts.withTableRows(rows);
    }

    /**
     * @param directory a journal.
     * @return per table (by its index in the journal's tables, as its marker has them now), its rows, tombstones
     *         included, by a scan of the events queue (with those of removed cycles the history base holds).
     */
    public static long[] tableRows(final JournalDirectory directory)
    {
        final JournalDirectory now = JournalDirectory.open(directory.root());
        final long[] rows = new long[now.tables().size()];
        final HistoryBase base = HistoryBase.load(now);
        if (base != null)
        {
            base.tableRows(now.tables(), (row, offset) -> rows[row.table()]++);
        }
        scan(now, base, new IngestConsumer()
        {
            @Override
            public void onIngestStart(final long offset, final String s, final long firstLine, final boolean linesTagged)
            {
            }

            @Override
            public void onRejected(final long offset, final long line, final String reason, final String content)
            {
            }

            @Override
            public void onEvent(final long offset, final long line)
            {
            }

            @Override
            public void onTableRow(final long offset, final int table, final long line)
            {
                rows[table]++;
            }
        });
        return rows;
    }

    /**
     * @param directory a journal.
     * @return counts over its events queue, by a scan of all of it (from its {@link HistoryBase}'s counts and first offset, if any).
     */
    static Counts countsByScan(final JournalDirectory directory)
    {
        final long[] c = {0, 0, 0, -1, -1, -1, -1, 0, 0};
        final HistoryBase base = HistoryBase.load(directory);
        if (base != null)
        {
            final Counts before = base.summary().countsBefore();
            c[0] = before.events();
            c[1] = before.rejected();
            c[2] = before.ingests();
            c[3] = before.firstOffset();
            c[4] = before.lastOffset();
            c[5] = before.firstEventOffset();
            c[6] = before.lastEventOffset();
            c[7] = before.heartbeats();
            c[8] = before.tableRows();
        }
        scan(directory, base, new IngestConsumer()
        {
            @Override
            public void onIngestStart(final long offset, final String s, final long firstLine, final boolean linesTagged)
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
            public void onEvent(final long offset, final long line)
            {
                c[0]++;
                seen(offset);
                if (c[5] < 0)
                {
                    c[5] = offset;
                }
                c[6] = offset;
            }

            @Override
            public void onHeartbeat(final long offset, final long eventTime, final long wallClock)
            {
                c[7]++;
                seen(offset);
            }

            @Override
            public void onTableRow(final long offset, final int table, final long line)
            {
                c[8]++;
                seen(offset);
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
        return new Counts(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]);
    }

    /**
     * Visit every document of the events queue in order (from its {@link HistoryBase}'s first offset on, if old
     * cycles were removed).
     *
     * @param directory a journal.
     * @param consumer  the visitor.
     */
    public static void scan(final JournalDirectory directory, final IngestConsumer consumer)
    {
        scan(directory, HistoryBase.load(directory), consumer);
    }

    private static void scan(final JournalDirectory directory, final HistoryBase base, final IngestConsumer consumer)
    {
        final Decoders documents = new Decoders(directory);
        final JournalOffsets offsets = directory.offsets();
        if (base != null)
        {
            base.dictionaries.forEach((column, entries) -> entries.keySet().forEach(id -> documents.defined.set(column, id)));
        }
        try (SingleChronicleQueue queue = JournalQueues.open(directory, directory.eventsQueue());
             ExcerptTailer tailer = queue.createTailer())
        {
            if (base != null)
            {
                HistoryBase.moveTo(tailer, base.first, directory.offsets());
            }
            while (true)
            {
                try (DocumentContext dc = tailer.readingDocument())
                {
                    if (!dc.isPresent())
                    {
                        return;
                    }
                    final BytesIn<?> in = dc.wire().bytes();
                    if (documents.batch.wrap(in))
                    {
                        while (documents.batch.next())
                        {
                            visit(in, offsets.offset(dc.index(), documents.batch.slot()), consumer, documents, directory.eventsQueue());
                        }
                        documents.batch.end();
                    }
                    else
                    {
                        visit(in, offsets.offset(dc.index(), 0), consumer, documents, directory.eventsQueue());
                    }
                }
            }
        }
    }

    private static void visit(final BytesIn<?> in, final long offset, final IngestConsumer consumer, final Decoders documents, final Path queue)
    {
        final TableRowDecoder row = documents.tables.wrap(in);
        if (row != null)
        {
            consumer.onTableRow(offset, row.table(), row.line());
        }
        else if (documents.start.wrap(in))
        {
            consumer.onIngestStart(offset, documents.start.source(), documents.start.firstLine(), documents.start.linesTagged());
        }
        else if (documents.rejected.wrap(in))
        {
            final long line = documents.rejected.line();
            consumer.onRejected(offset, line, documents.rejected.reason(), documents.rejected.content());
            if (documents.rejected.unterminatedLength() >= 0)
            {
                consumer.onUnterminated(offset, line, documents.rejected.unterminatedLength());
            }
        }
        else if (Heartbeat.is(in))
        {
            consumer.onHeartbeat(offset, Heartbeat.eventTime(in), Heartbeat.wallClock(in));
        }
        else if (documents.event.wrap(in))
        {
            if (documents.event.hasKey() && !documents.event.shape().isDefault())
            {
                documents.defined.define(documents.event);
            }
            final long line = documents.event.line();
            consumer.onEvent(offset, line);
            if (line >= 0 && documents.event.unterminatedLength() >= 0)
            {
                consumer.onUnterminated(offset, line, documents.event.unterminatedLength());
            }
        }
        else
        {
            DocumentType.refuseNewerEvent(DocumentType.peek(in), queue, offset);
        }
    }

    /** One scan's decoders. */
    private static final class Decoders
    {
        private final IngestStartDecoder start = new IngestStartDecoder();
        private final dev.weir.journal.codec.EventBatchDecoder batch = new dev.weir.journal.codec.EventBatchDecoder();
        private final RejectedLineDecoder rejected = new RejectedLineDecoder();
        private final EventDecoder event;
        private final CurrentTables tables;
        private final DefinedIds defined = new DefinedIds();

        Decoders(final JournalDirectory directory)
        {
            this.event = new EventDecoder(EventShape.of(directory.schema()));
            this.tables = new CurrentTables(directory);
        }
    }

    /** The string ids defined so far in a scan, per column: which strings an event carries (see {@link EventDecoder}). */
    private static final class DefinedIds implements StringDefinitions
    {
        private final java.util.BitSet[] byColumn = new java.util.BitSet[JournalSchema.MAX_COLUMNS];

        @Override
        public boolean isDefined(final int column, final int id)
        {
            return byColumn[column] != null && id >= 0 && byColumn[column].get(id);
        }

        /** Learn an id defined before the scan's start. */
        void set(final int column, final int id)
        {
            if (byColumn[column] == null)
            {
                byColumn[column] = new java.util.BitSet();
            }
            byColumn[column].set(id);
        }

        /** Learn the ids an event defines, before reading its trailers. */
        void define(final EventDecoder event)
        {
            final long columns = event.newStrings(this);
            for (int c = 0; c < JournalSchema.MAX_COLUMNS; c++)
            {
                if ((columns & 1L << c) != 0)
                {
                    if (byColumn[c] == null)
                    {
                        byColumn[c] = new java.util.BitSet();
                    }
                    byColumn[c].set(Math.max(0, event.stringId(c)));
                }
            }
        }
    }
}
