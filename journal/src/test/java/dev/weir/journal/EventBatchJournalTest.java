package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.weir.journal.codec.EventConsumer;
import dev.weir.journal.schema.EventView;
import dev.weir.journal.schema.JournalSchema;

/**
 * A journal of batched documents (marker version 5) written with a mix of {@link EventBatch} documents and single
 * documents reads exactly as the same events written one document each: the same events in the same order, by both
 * polls and at every poll limit; a {@link JournalReader#seek} to every offset (inside a batch, past its last slot) and
 * a {@link JournalReader#seekAfter} every event's offset read the same suffix; the ingest log, counts and dictionaries
 * agree, and still do once retention moved the history base on and removed a cycle. In a journal of single documents
 * the bulk appender writes single documents.
 */
class EventBatchJournalTest
{
    static final JournalSchema PAYMENTS = JournalSchema.parse("card:string,merchant:string,amount:decimal(2),fee:long");

    @TempDir
    Path dir;

    /** One event read back, with what its document said. */
    record Read(long offset, long id, long time, String card, String merchant, long amount, long fee)
    {
        Read withoutOffset()
        {
            return new Read(0, id, time, card, merchant, amount, fee);
        }
    }

    /** Make an empty journal one of batched documents (before anything is appended). */
    static JournalDirectory batched(final Path root, final JournalSchema schema)
    {
        return batched(root, schema, JournalRollCycle.DEFAULT);
    }

    static JournalDirectory batched(final Path root, final JournalSchema schema, final JournalRollCycle rollCycle)
    {
        JournalDirectory.openOrCreate(root, schema, rollCycle);
        final Path marker = root.resolve(JournalDirectory.MARKER_FILE);
        try
        {
            final List<String> lines = new ArrayList<>(Files.readAllLines(marker, StandardCharsets.UTF_8));
            lines.set(1, "version=" + JournalDirectory.FORMAT_VERSION_BATCHED);
            Files.write(marker, lines, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        final JournalDirectory directory = JournalDirectory.open(root);
        assertTrue(directory.offsets().batched());
        return directory;
    }

    /**
     * Append the test's documents: an ingest start, batches of 1 to 64+ events (strings first used inside a batch, and
     * used again in the same batch), single events, rejected lines and heartbeats between them.
     *
     * @param bulk true to add events through the bulk appender, false to append each as a document of its own.
     * @return the offsets the journal returned for each event, in order.
     */
    static List<Long> write(final JournalDirectory directory, final boolean bulk)
    {
        final List<Long> offsets = new ArrayList<>();
        try (EventJournal journal = EventJournal.open(directory))
        {
            journal.appendIngestStart("payments.csv", 2);
            long line = 2;
            int id = 0;
            final int[] sizes = {1, 2, 63, 64, 65, 7, 130, 3};
            for (int b = 0; b < sizes.length; b++)
            {
                final int firstSlot = offsets.size();
                long first = -1;
                for (int e = 0; e < sizes[b]; e++)
                {
                    final EventRow row = journal.row();
                    row.eventId(id).eventTime(1_000 + id).setString(0, journal.stringId(0, "card-" + (id % 17)))
                        .setString(1, journal.stringId(1, "m-" + (id % 5 + b))).setLong(2, id * 101L).setLong(3, -id);
                    if (bulk)
                    {
                        final int slot = journal.batch().appendIngested(row, line++, -1);
                        if (journal.batch().pending() == 0) // written: a full batch
                        {
                            final long last = journal.batch().lastOffset();
                            for (int s = 0; s <= slot; s++)
                            {
                                offsets.add(last - slot + s);
                            }
                        }
                    }
                    else
                    {
                        offsets.add(journal.appendIngested(row, line++, -1));
                    }
                    id++;
                }
                if (bulk)
                {
                    final int pending = journal.batch().pending();
                    first = journal.batch().flush();
                    for (int s = 0; s < pending; s++)
                    {
                        offsets.add(first + s);
                    }
                }
                assertEquals(firstSlot + sizes[b], offsets.size());
                switch (b % 3)
                {
                    case 0 -> journal.appendRejected(line++, "bad", "x,y");
                    case 1 -> journal.appendHeartbeat(1_000 + id);
                    default ->
                    {
                        final EventRow row = journal.row();
                        row.eventId(id).eventTime(1_000 + id).setString(0, journal.stringId(0, "single-" + b))
                            .setString(1, journal.stringId(1, "m-0")).setLong(2, 1).setLong(3, 2);
                        offsets.add(journal.appendIngested(row, line++, -1));
                        id++;
                    }
                }
            }
        }
        return offsets;
    }

    static List<Read> readAll(final JournalReader reader, final boolean whole, final int limit)
    {
        final List<Read> read = new ArrayList<>();
        final EventViewConsumer view = new EventViewConsumer()
        {
            @Override
            public void onEvent(final long offset, final EventView event)
            {
                read.add(new Read(offset, event.eventId(), event.eventTime(), String.valueOf(event.stringId(0)),
                    String.valueOf(event.stringId(1)), event.longColumn(2), event.longColumn(3)));
            }
        };
        final EventConsumer fields = new EventConsumer()
        {
            @Override
            public void onEvent(final long offset, final long eventId, final long eventTime, final int keyId, final long value)
            {
                read.add(new Read(offset, eventId, eventTime, String.valueOf(keyId), "", value, 0));
            }

            @Override
            public void onHeartbeat(final long offset, final long eventTime)
            {
            }
        };
        int n;
        do
        {
            n = whole ? reader.poll(view, limit) : reader.poll(fields, limit);
            assertTrue(n <= limit);
        }
        while (n > 0);
        return read;
    }

    private static List<Read> withoutOffsets(final List<Read> reads)
    {
        return reads.stream().map(Read::withoutOffset).toList();
    }

    @Test
    void aMixedJournalReadsSeeksAndCountsAsOneWrittenADocumentPerEvent()
    {
        assertEquals(JournalOffsets.MAX_SLOTS, dev.weir.journal.codec.EventBatchEncoder.MAX_COUNT, "a batch fills a document's slots");
        final JournalDirectory mixed = batched(dir.resolve("mixed"), PAYMENTS);
        final JournalDirectory single = batched(dir.resolve("single"), PAYMENTS);
        final List<Long> mixedOffsets = write(mixed, true);
        final List<Long> singleOffsets = write(single, false);
        assertEquals(singleOffsets.size(), mixedOffsets.size());
        for (int i = 1; i < mixedOffsets.size(); i++)
        {
            assertTrue(mixedOffsets.get(i) > mixedOffsets.get(i - 1), "offsets grow in append order");
        }
        assertNotEquals(mixedOffsets, singleOffsets, "batches pack events into slots");

        for (final boolean whole : new boolean[] {true, false})
        {
            final List<Read> expected;
            try (JournalReader reader = JournalReader.open(single))
            {
                expected = readAll(reader, whole, 1000);
            }
            assertEquals(singleOffsets, expected.stream().map(Read::offset).toList());
            for (final int limit : new int[] {1, 3, 64, 1000})
            {
                try (JournalReader reader = JournalReader.open(mixed))
                {
                    final List<Read> read = readAll(reader, whole, limit);
                    assertEquals(mixedOffsets, read.stream().map(Read::offset).toList(), "offsets, limit " + limit);
                    assertEquals(withoutOffsets(expected), withoutOffsets(read), "events, limit " + limit);
                    assertEquals(reader.lastOffset(), reader.lastReadOffset(), "the last document: a heartbeat");
                    assertTrue(reader.lastOffset() > mixedOffsets.get(mixedOffsets.size() - 1));
                    assertEquals(3, reader.rejectedRead());
                }
            }
        }

        // every offset of an event, one past it, and seekAfter each: the same suffix as the full read
        final List<Read> all;
        try (JournalReader reader = JournalReader.open(mixed))
        {
            all = readAll(reader, true, 1000);
        }
        try (JournalReader reader = JournalReader.open(mixed))
        {
            for (int i = 0; i < all.size(); i++)
            {
                final long offset = all.get(i).offset();
                reader.seek(offset);
                assertEquals(all.subList(i, all.size()), readAll(reader, true, 5), "seek " + offset);
                reader.seek(offset + 1);
                assertEquals(all.subList(i + 1, all.size()), readAll(reader, true, 7), "seek " + (offset + 1));
                reader.seekAfter(offset);
                assertEquals(offset, reader.lastReadOffset());
                assertEquals(all.subList(i + 1, all.size()), readAll(reader, true, 2), "seekAfter " + offset);
            }
            // the highest offset a batch's document can hold, past its last slot: the next document
            final long inside = all.get(10).offset();
            reader.seek(mixed.offsets().offset(mixed.offsets().index(inside), JournalOffsets.MAX_SLOTS - 1));
            final List<Read> after = readAll(reader, true, 1000);
            assertTrue(after.get(0).offset() > inside && mixed.offsets().slot(after.get(0).offset()) == 0);
        }

        // ingest log, counts and dictionaries
        assertEquals(IngestLog.nextLines(single), IngestLog.nextLines(mixed));
        final IngestLog.Counts singleCounts = IngestLog.counts(single);
        final IngestLog.Counts mixedCounts = IngestLog.counts(mixed);
        assertEquals(singleCounts.events(), mixedCounts.events());
        assertEquals(singleCounts.rejected(), mixedCounts.rejected());
        assertEquals(singleCounts.heartbeats(), mixedCounts.heartbeats());
        assertEquals(mixedOffsets.get(mixedOffsets.size() - 1), mixedCounts.lastEventOffset());
        final List<long[]> events = new ArrayList<>();
        IngestLog.scan(mixed, new IngestConsumer()
        {
            @Override
            public void onIngestStart(final long offset, final String source, final long firstLine, final boolean linesTagged)
            {
            }

            @Override
            public void onRejected(final long offset, final long line, final String reason, final String content)
            {
            }

            @Override
            public void onEvent(final long offset, final long line)
            {
                events.add(new long[] {offset, line});
            }
        });
        assertEquals(mixedOffsets, events.stream().map(e -> e[0]).toList());
        try (StringDictionaries fromSingle = StringDictionaries.open(single);
             StringDictionaries fromMixed = StringDictionaries.open(mixed))
        {
            final Map<Integer, ? extends Map<Integer, String>> expected = fromSingle.definitions();
            assertEquals(expected, fromMixed.definitions());
            assertEquals(17 + 2, expected.get(0).size(), "cards and the singles' own");
        }
    }

    @AfterEach
    void systemClock()
    {
        JournalClock.useForTests(null);
    }

    @Test
    void oncePastCyclesAreRemovedAMixedJournalReadsAsOneWrittenADocumentPerEvent() throws IOException
    {
        final java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong(1_764_579_600_000L);
        JournalClock.useForTests(JournalClock.of(now::get));
        final JournalDirectory mixed = batched(dir.resolve("mixed"), PAYMENTS, JournalRollCycle.MINUTELY);
        final JournalDirectory single = batched(dir.resolve("single"), PAYMENTS, JournalRollCycle.MINUTELY);
        final long start = now.get();
        for (int cycle = 0; cycle < 3; cycle++)
        {
            now.set(start + cycle * 60_000L + 1_000);
            write(mixed, true);
            write(single, false);
        }
        final List<Read> before = new ArrayList<>();
        for (final JournalDirectory journal : List.of(mixed, single))
        {
            final List<JournalCycles.Cycle> cycles = JournalCycles.events(journal).cycles();
            assertEquals(3, cycles.size(), cycles.toString());
            final long base = cycles.get(1).firstOffset();
            final List<Read> all;
            try (JournalReader reader = JournalReader.open(journal))
            {
                all = readAll(reader, true, 1000);
            }
            final Map<String, Long> nextLines = IngestLog.nextLines(journal);
            final IngestLog.Counts counts = IngestLog.counts(journal);
            final Map<Integer, ? extends Map<Integer, String>> strings;
            try (StringDictionaries dictionaries = StringDictionaries.open(journal))
            {
                strings = dictionaries.definitions();
            }
            HistoryBase.advance(journal, base, List.of(), 0, null);
            Files.delete(journal.eventsQueue().resolve(cycles.get(0).fileName()));
            Files.deleteIfExists(journal.root().resolve(DictionarySnapshot.FILE));

            final List<Read> kept = all.stream().filter(r -> r.offset() >= base).toList();
            assertTrue(kept.size() < all.size() && !kept.isEmpty());
            try (JournalReader reader = JournalReader.open(journal))
            {
                assertEquals(kept, readAll(reader, true, 9), "read from the base");
                assertEquals(base, reader.firstOffset());
                reader.seek(kept.get(70).offset());
                assertEquals(kept.subList(70, kept.size()), readAll(reader, true, 9), "sought past the base");
            }
            assertEquals(nextLines, IngestLog.nextLines(journal));
            assertEquals(counts.events(), IngestLog.counts(journal).events());
            try (StringDictionaries dictionaries = StringDictionaries.open(journal))
            {
                assertEquals(strings, dictionaries.definitions());
            }
            if (before.isEmpty())
            {
                before.addAll(withoutOffsets(kept));
            }
            else
            {
                assertEquals(before, withoutOffsets(kept), "the same events kept, batched or not");
            }
        }
    }

    @Test
    void aJournalOfSingleDocumentsGetsSingleDocumentsFromTheBulkAppender()
    {
        JournalDirectory.openOrCreate(dir, PAYMENTS);
        final JournalDirectory indexed = JournalDirectory.open(dir);
        if (indexed.offsets().batched())
        {
            return; // new journals are batched: the fixtures of older journals cover the rest
        }
        final List<Long> offsets = write(indexed, true);
        for (int i = 1; i < offsets.size(); i++)
        {
            assertTrue(offsets.get(i) > offsets.get(i - 1));
        }
        try (JournalReader reader = JournalReader.open(JournalDirectory.open(dir)))
        {
            assertEquals(offsets, readAll(reader, true, 10).stream().map(Read::offset).toList());
        }
    }
}
