package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.weir.journal.codec.DocumentType;
import dev.weir.journal.codec.LateEventDecoder;
import dev.weir.journal.codec.OutputDecoder;
import dev.weir.journal.codec.ResultDecoder;

/**
 * The output journal of a journal of batched documents (marker version 5): outputs appended are held and written as
 * one {@link DocumentType#RESULT_BATCH} per {@link OutputJournal#flush()} (at most {@value JournalOffsets#MAX_SLOTS} a
 * document; a flush of one writes its single document), and every reader sees the same outputs, in the same order, as
 * from a journal of one document per output: {@link OutputJournal#readAll}, {@link OutputJournal#readBetween} and the
 * cursor from every position, inside a batch and at its boundaries; positions are {@code index << 6 | slot}, grow, and
 * name exactly one output each.
 */
class BatchedOutputJournalTest
{
    private static final int OUTPUTS = 400;

    @TempDir
    Path dir;

    /** Each output read, as text naming every field, in the order read, with the position the cursor reported. */
    private static final class Outputs implements OutputConsumer
    {
        final List<String> read = new ArrayList<>();

        @Override
        public void onOutput(final OutputDecoder output)
        {
            read.add(text(output));
        }
    }

    static String text(final OutputDecoder output)
    {
        if (output.isResult())
        {
            final ResultDecoder r = output.result();
            final StringBuilder text = new StringBuilder().append(r.kind()).append(' ').append(r.windowStart()).append(',').append(r.windowEnd())
                .append(",#").append(r.keyId()).append(',').append(r.count()).append(',').append(r.sum()).append(',').append(r.min()).append(',')
                .append(r.max()).append(",v").append(r.version()).append(" @").append(r.sourceOffset());
            for (int a = 0; a < r.aggregateCount(); a++)
            {
                text.append(" a").append(a).append('=').append(r.aggregate(a));
            }
            return text.toString();
        }
        final LateEventDecoder l = output.late();
        return "late " + l.eventId() + "," + l.eventTime() + ",#" + l.keyId() + "," + l.value() + " @" + l.offset();
    }

    /**
     * Append random outputs (results with and without an aggregate, late events), flushing after runs of 1 to 150 of them.
     *
     * @return the position of the last output of each flush, in order (none for a journal of single documents).
     */
    private static List<Long> append(final OutputJournal output, final long seed, final List<Integer> flushedAfter)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<Long> flushed = new ArrayList<>();
        int untilFlush = 1;
        for (int i = 0; i < OUTPUTS; i++)
        {
            final long s = random.nextLong(-1L << 40, 1L << 40);
            final int k = random.nextInt(Integer.MAX_VALUE);
            if (random.nextInt(4) == 0)
            {
                output.appendLate(OutputJournalTest.lateFields(random.nextLong(), s, k, random.nextLong(), random.nextLong(Long.MAX_VALUE)));
            }
            else
            {
                final int aggregates = random.nextInt(2);
                output.appendResult(new StoredResult(s, s + random.nextLong(1, 1L << 20), k, random.nextLong(1, Long.MAX_VALUE), random.nextLong(),
                    random.nextLong(), random.nextLong(), random.nextInt(1000), random.nextLong(Long.MAX_VALUE), random.nextLong()), aggregates);
            }
            if (--untilFlush == 0 || i == OUTPUTS - 1)
            {
                output.flush();
                assertEquals(0, output.heldOutputs());
                flushed.add(output.lastAppendedPosition());
                flushedAfter.add(i);
                untilFlush = random.nextInt(8) == 0 ? random.nextInt(65, 150) : random.nextInt(1, 20);
            }
        }
        return flushed;
    }

    /** @return every output and its position, read with the cursor from the start. */
    private static List<Long> positions(final OutputJournal output, final List<String> texts)
    {
        final List<Long> positions = new ArrayList<>();
        final Outputs outputs = new Outputs();
        output.seekAfter(OutputJournal.NONE);
        while (output.next(outputs) != 0)
        {
            positions.add(output.lastReadPosition());
        }
        texts.addAll(outputs.read);
        return positions;
    }

    @Test
    void batchedOutputsReadAsTheSameOutputsInTheSameOrderAsSingleDocuments()
    {
        final JournalDirectory single = JournalDirectory.openOrCreate(dir.resolve("single"));
        final JournalDirectory batched = BatchedJournals.create(dir.resolve("batched"));
        final Outputs fromSingle = new Outputs();
        final Outputs fromBatched = new Outputs();
        try (OutputJournal s = OutputJournal.openForAppend(single); OutputJournal b = OutputJournal.openForAppend(batched))
        {
            append(s, 7, new ArrayList<>());
            append(b, 7, new ArrayList<>());
            assertEquals(OUTPUTS, s.readAll(fromSingle));
            assertEquals(OUTPUTS, b.readAll(fromBatched));
        }
        assertEquals(fromSingle.read, fromBatched.read, "every output, field for field, in order");
        final Outputs reopened = new Outputs();
        try (OutputJournal b = OutputJournal.open(JournalDirectory.open(dir.resolve("batched"))))
        {
            assertEquals(OUTPUTS, b.readAll(reopened));
            final List<String> texts = new ArrayList<>();
            positions(b, texts);
            assertEquals(fromSingle.read, texts, "the cursor reads them too");
        }
        assertEquals(fromSingle.read, reopened.read, "and after a reopen");
    }

    @Test
    void positionsAreSlotsOfTheDocumentsEachFlushWrote()
    {
        final JournalDirectory batched = BatchedJournals.create(dir.resolve("batched"));
        try (OutputJournal output = OutputJournal.openForAppend(batched))
        {
            assertEquals(OutputJournal.NONE, output.lastAppendedPosition());
            final List<Integer> flushedAfter = new ArrayList<>();
            final List<Long> flushed = append(output, 11, flushedAfter);
            final List<Long> positions = positions(output, new ArrayList<>());
            assertEquals(OUTPUTS, positions.size());
            for (int f = 0; f < flushed.size(); f++)
            {
                assertEquals(positions.get(flushedAfter.get(f)), flushed.get(f), "flush " + f + " names the last output it wrote");
            }
            final JournalOffsets offsets = JournalOffsets.SLOTTED;
            int documents = 1;
            for (int i = 1; i < positions.size(); i++)
            {
                final long before = positions.get(i - 1);
                final long position = positions.get(i);
                assertTrue(position > before, "positions grow: " + before + ", " + position);
                if (offsets.index(position) == offsets.index(before))
                {
                    assertEquals(offsets.slot(before) + 1, offsets.slot(position), "slots follow each other in a document");
                }
                else
                {
                    assertEquals(0, offsets.slot(position), "a document starts at slot 0");
                    documents++;
                }
            }
            int expected = 0;
            int from = -1;
            for (final int last : flushedAfter)
            {
                expected += (last - from + JournalOffsets.MAX_SLOTS - 1) / JournalOffsets.MAX_SLOTS;
                from = last;
            }
            assertEquals(expected, documents, "one document per flush, and one more per 64 outputs held");
            assertEquals(positions.get(OUTPUTS - 1), output.lastPosition());
        }
    }

    @Test
    void theCursorResumesJustAfterEveryPositionInsideABatchAndAtItsBoundaries()
    {
        final JournalDirectory batched = BatchedJournals.create(dir.resolve("batched"));
        try (OutputJournal output = OutputJournal.openForAppend(batched))
        {
            append(output, 13, new ArrayList<>());
            final List<String> texts = new ArrayList<>();
            final List<Long> positions = positions(output, texts);
            for (int after = -1; after < OUTPUTS; after++)
            {
                output.seekAfter(after < 0 ? OutputJournal.NONE : positions.get(after));
                assertEquals(after < 0 ? OutputJournal.NONE : (long)positions.get(after), output.lastReadPosition());
                final Outputs outputs = new Outputs();
                int read = 0;
                while (read < 70 && output.next(outputs) != 0)
                {
                    assertEquals((long)positions.get(after + 1 + read), output.lastReadPosition(), "after " + after + ", output " + read);
                    read++;
                }
                assertEquals(texts.subList(after + 1, Math.min(OUTPUTS, after + 71)), outputs.read, "outputs after " + after);
            }
            output.seekAfter(positions.get(OUTPUTS - 1));
            assertEquals(0, output.next(new Outputs()), "nothing after the last");
        }
    }

    @Test
    void readBetweenTwoPositionsReadsExactlyTheOutputsFromTheFirstUpToTheSecond()
    {
        final JournalDirectory batched = BatchedJournals.create(dir.resolve("batched"));
        try (OutputJournal output = OutputJournal.openForAppend(batched))
        {
            append(output, 17, new ArrayList<>());
            final List<String> texts = new ArrayList<>();
            final List<Long> positions = positions(output, texts);
            final SplittableRandom random = new SplittableRandom(5);
            for (int trial = 0; trial < 200; trial++)
            {
                final int from = random.nextInt(OUTPUTS);
                final int to = random.nextInt(from, OUTPUTS + 1);
                final Outputs outputs = new Outputs();
                final long read = output.readBetween(positions.get(from), to == OUTPUTS ? Long.MAX_VALUE : positions.get(to), outputs);
                assertEquals(to - from, read);
                assertEquals(texts.subList(from, to), outputs.read, "outputs " + from + " to " + to);
            }
            final Outputs all = new Outputs();
            assertEquals(OUTPUTS, output.readBetween(OutputJournal.NONE, Long.MAX_VALUE, all));
            assertEquals(texts, all.read);
        }
    }

    @Test
    void aFlushOfOneOutputWritesItsSingleDocumentAndOfSeveralOneBatch()
    {
        final JournalDirectory batched = BatchedJournals.create(dir.resolve("batched"));
        try (OutputJournal output = OutputJournal.openForAppend(batched))
        {
            output.appendLate(OutputJournalTest.lateFields(1, 2, 3, 4, 5));
            assertEquals(OutputJournal.NONE, output.lastAppendedPosition(), "held, not written");
            assertEquals(OutputJournal.NONE, output.lastPosition(), "a reader sees nothing before the flush");
            output.flush();
            final long single = output.lastAppendedPosition();
            assertEquals(0, JournalOffsets.SLOTTED.slot(single));
            output.flush();
            assertEquals(single, output.lastAppendedPosition(), "a flush with nothing held writes nothing");
            output.appendResult(new StoredResult(10, 20, 7, 1, 2, 2, 2, 0, 6, 0), false);
            output.appendLate(OutputJournalTest.lateFields(6, 7, 8, 9, 10));
            output.appendResult(new StoredResult(30, 40, 7, 1, 2, 2, 2, 0, 11, 99), true);
            output.flush();
            final long batch = output.lastAppendedPosition();
            assertEquals(JournalOffsets.SLOTTED.index(single) + 1, JournalOffsets.SLOTTED.index(batch));
            assertEquals(2, JournalOffsets.SLOTTED.slot(batch));
        }
        final List<Integer> types = new ArrayList<>();
        try (SingleChronicleQueue queue = JournalQueues.open(batched, batched.resultsQueue()); ExcerptTailer tailer = queue.createTailer())
        {
            while (true)
            {
                try (DocumentContext dc = tailer.readingDocument())
                {
                    if (!dc.isPresent())
                    {
                        break;
                    }
                    types.add(DocumentType.peek(dc.wire().bytes()));
                }
            }
        }
        assertEquals(List.of((int)DocumentType.LATE_EVENT, (int)DocumentType.RESULT_BATCH), types);
    }

    @Test
    void seekingAfterAPositionThatHoldsNoOutputIsRefused()
    {
        final JournalDirectory batched = BatchedJournals.create(dir.resolve("batched"));
        try (OutputJournal output = OutputJournal.openForAppend(batched))
        {
            output.appendLate(OutputJournalTest.lateFields(1, 2, 3, 4, 5));
            output.flush();
            final long single = output.lastAppendedPosition();
            output.appendLate(OutputJournalTest.lateFields(1, 2, 3, 4, 5));
            output.appendLate(OutputJournalTest.lateFields(1, 2, 3, 4, 5));
            output.flush();
            final long batchEnd = output.lastAppendedPosition();
            for (final long nowhere : new long[] {single + 1, batchEnd + 1, batchEnd + 64})
            {
                final IllegalStateException refused = assertThrows(IllegalStateException.class, () -> output.seekAfter(nowhere));
                assertTrue(refused.getMessage().contains("has no output at position " + nowhere), refused.getMessage());
            }
            output.seekAfter(batchEnd - 1);
            assertEquals(DocumentType.LATE_EVENT, output.next(new Outputs()));
            assertEquals(batchEnd, output.lastReadPosition());
        }
    }

    @Test
    void theCursorSeesABatchFlushedAfterItReachedTheEnd()
    {
        final JournalDirectory batched = BatchedJournals.create(dir.resolve("batched"));
        try (OutputJournal output = OutputJournal.openForAppend(batched))
        {
            output.appendLate(OutputJournalTest.lateFields(1, 2, 3, 4, 5));
            output.flush();
            output.seekAfter(output.lastAppendedPosition());
            final Outputs outputs = new Outputs();
            assertEquals(0, output.next(outputs));
            output.appendResult(new StoredResult(10, 20, 7, 1, 2, 2, 2, 0, 6, 0), false);
            assertEquals(0, output.next(outputs), "held outputs are not visible");
            output.appendResult(new StoredResult(30, 40, 7, 1, 2, 2, 2, 0, 7, 0), false);
            output.flush();
            assertEquals(DocumentType.RESULT, output.next(outputs));
            assertEquals(DocumentType.RESULT, output.next(outputs));
            assertEquals(output.lastAppendedPosition(), output.lastReadPosition());
            assertEquals(0, output.next(outputs));
            assertEquals(2, outputs.read.size());
        }
    }

    @Test
    void aBatchHoldsAsManyOutputsAsADocumentHasSlots()
    {
        assertEquals(JournalOffsets.MAX_SLOTS, dev.weir.journal.codec.ResultBatchEncoder.MAX_OUTPUTS);
    }

    @Test
    void closingWritesTheOutputsHeld()
    {
        final JournalDirectory batched = BatchedJournals.create(dir.resolve("batched"));
        try (OutputJournal output = OutputJournal.openForAppend(batched))
        {
            for (int i = 0; i < 100; i++)
            {
                output.appendLate(OutputJournalTest.lateFields(i, 2, 3, 4, 5));
            }
            assertEquals(100 - JournalOffsets.MAX_SLOTS, output.heldOutputs(), "the first 64 were written when the 65th came");
        }
        try (OutputJournal output = OutputJournal.open(JournalDirectory.open(dir.resolve("batched"))))
        {
            assertEquals(100, output.readAll(stored -> { }));
        }
    }

    @Test
    void aBatchedJournalsResultCyclesNameTheSlotsTheirDocumentsCanHold()
    {
        final JournalDirectory batched = BatchedJournals.create(dir.resolve("batched"));
        final long last;
        try (OutputJournal output = OutputJournal.openForAppend(batched))
        {
            output.appendLate(OutputJournalTest.lateFields(1, 2, 3, 4, 5));
            output.appendLate(OutputJournalTest.lateFields(1, 2, 3, 4, 5));
            output.flush();
            last = output.lastAppendedPosition();
        }
        final JournalCycles cycles = JournalCycles.results(batched);
        assertEquals(1, cycles.cycles().size());
        final JournalCycles.Cycle cycle = cycles.cycles().get(0);
        assertEquals(last - 1, cycle.firstOffset(), "slot 0 of the first document");
        assertEquals(JournalOffsets.SLOTTED.offset(JournalOffsets.SLOTTED.index(last), JournalOffsets.MAX_SLOTS - 1), cycle.lastOffset());
        assertTrue(cycle.lastOffset() >= last);
    }
}
