package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.weir.journal.codec.DocumentType;
import dev.weir.journal.codec.LateEventDecoder;
import dev.weir.journal.codec.LateFields;
import dev.weir.journal.codec.OutputDecoder;
import dev.weir.journal.codec.ResultDecoder;

/**
 * The output journal on a real Chronicle Queue: results (with and without a user aggregation's value) and
 * late events round-trip field for field, in order and across a reopen; positions grow;
 * {@link OutputJournal#lastPosition()} names the last output; the read cursor
 * ({@link OutputJournal#seekAfter(long)}, {@link OutputJournal#next(OutputConsumer)}) resumes just after any
 * position and reports what it read.
 */
class OutputJournalTest
{
    @TempDir
    Path dir;

    /** Each output read, as text naming every field, in the order read. */
    private static final class Outputs implements OutputConsumer
    {
        final List<String> read = new ArrayList<>();

        @Override
        public void onOutput(final OutputDecoder output)
        {
            if (output.isResult())
            {
                final ResultDecoder r = output.result();
                read.add(result(r.windowStart(), r.windowEnd(), r.keyId(), r.count(), r.sum(), r.min(), r.max(), r.version(), r.sourceOffset())
                    + (r.hasAggregate() ? " aggregate=" + r.aggregate() : ""));
            }
            else
            {
                final LateEventDecoder l = output.late();
                read.add(late(l.eventId(), l.eventTime(), l.keyId(), l.value(), l.offset()));
            }
        }
    }

    private static String result(
        final long s, final long e, final int k, final long c, final long sum, final long min, final long max, final int v, final long o)
    {
        return "result " + s + "," + e + ",#" + k + "," + c + "," + sum + "," + min + "," + max + ",v" + v + " @" + o;
    }

    private static String late(final long id, final long t, final int k, final long v, final long o)
    {
        return "late " + id + "," + t + ",#" + k + "," + v + " @" + o;
    }

    /** Append 300 random outputs, returning their text in order and their positions. */
    private static List<String> appendOutputs(final OutputJournal output, final List<Long> positions, final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<String> written = new ArrayList<>();
        for (int i = 0; i < 300; i++)
        {
            final long s = random.nextLong(-1L << 40, 1L << 40);
            final long e = s + random.nextLong(1, 1L << 20);
            final int k = random.nextInt(Integer.MAX_VALUE);
            final long c = random.nextLong(1, Long.MAX_VALUE);
            final long sum = random.nextLong();
            final long min = random.nextLong();
            final long max = random.nextLong();
            final int v = random.nextInt(1000);
            final long o = random.nextLong(Long.MAX_VALUE);
            final int kind = random.nextInt(3);
            if (kind == 0)
            {
                positions.add(output.appendResult(new StoredResult(s, e, k, c, sum, min, max, v, o, 0), false));
                written.add(result(s, e, k, c, sum, min, max, v, o));
            }
            else if (kind == 1)
            {
                final long aggregate = random.nextLong();
                positions.add(output.appendResult(new StoredResult(s, e, k, c, sum, min, max, v, o, aggregate), true));
                written.add(result(s, e, k, c, sum, min, max, v, o) + " aggregate=" + aggregate);
            }
            else
            {
                positions.add(output.appendLate(lateFields(sum, s, k, min, o)));
                written.add(late(sum, s, k, min, o));
            }
        }
        return written;
    }

    @Test
    void everyOutputRoundTripsFieldForFieldInOrderAndAcrossAReopen()
    {
        JournalDirectory.openOrCreate(dir);
        final JournalDirectory directory = IndexedJournals.indexed(dir); // single output documents; batched: BatchedOutputJournalTest
        final List<Long> positions = new ArrayList<>();
        final List<String> written;
        try (OutputJournal output = OutputJournal.openForAppend(directory))
        {
            assertEquals(OutputJournal.NONE, output.lastPosition(), "an empty journal has no last output");
            written = appendOutputs(output, positions, 17);
            for (int i = 1; i < positions.size(); i++)
            {
                assertTrue(positions.get(i) > positions.get(i - 1), "positions grow in append order");
            }
            final Outputs outputs = new Outputs();
            assertEquals(written.size(), output.readAll(outputs));
            assertEquals(written, outputs.read);
            assertEquals(positions.get(positions.size() - 1), output.lastPosition());
        }
        try (OutputJournal reopened = OutputJournal.open(JournalDirectory.open(dir)))
        {
            final Outputs outputs = new Outputs();
            assertEquals(written.size(), reopened.readAll(outputs));
            assertEquals(written, outputs.read);
            assertEquals(positions.get(positions.size() - 1), reopened.lastPosition());
        }
    }

    @Test
    void theCursorResumesJustAfterAnyPositionAndReportsWhatItRead()
    {
        JournalDirectory.openOrCreate(dir);
        final JournalDirectory directory = IndexedJournals.indexed(dir); // single output documents; batched: BatchedOutputJournalTest
        final List<Long> positions = new ArrayList<>();
        try (OutputJournal output = OutputJournal.openForAppend(directory))
        {
            final List<String> written = appendOutputs(output, positions, 29);
            for (final int after : new int[] {-1, 0, 1, 150, 298, 299})
            {
                output.seekAfter(after < 0 ? OutputJournal.NONE : positions.get(after));
                assertEquals(after < 0 ? OutputJournal.NONE : (long)positions.get(after), output.lastReadPosition());
                final Outputs outputs = new Outputs();
                int type;
                int read = 0;
                while ((type = output.next(outputs)) != 0)
                {
                    final int index = after + 1 + read;
                    assertEquals(written.get(index).startsWith("late") ? DocumentType.LATE_EVENT : DocumentType.RESULT, type);
                    assertEquals((long)positions.get(index), output.lastReadPosition(), "position of output " + index);
                    read++;
                }
                assertEquals(written.subList(after + 1, written.size()), outputs.read, "outputs after " + after);
                assertEquals(0, output.next(outputs), "the end stays the end");
            }
            assertEquals(positions.get(299), output.lastPosition(), "the read cursor does not move lastPosition");
        }
    }

    @Test
    void theCursorSeesOutputsAppendedAfterItReachedTheEnd()
    {
        JournalDirectory.openOrCreate(dir);
        final JournalDirectory directory = IndexedJournals.indexed(dir); // single output documents; batched: BatchedOutputJournalTest
        try (OutputJournal output = OutputJournal.openForAppend(directory))
        {
            final long first = output.appendLate(lateFields(1, 2, 3, 4, 5));
            output.seekAfter(first);
            final Outputs outputs = new Outputs();
            assertEquals(0, output.next(outputs));
            final long second = output.appendResult(new StoredResult(10, 20, 7, 1, 2, 2, 2, 0, 6, 0), false);
            assertEquals(DocumentType.RESULT, output.next(outputs));
            assertEquals(second, output.lastReadPosition());
            assertEquals(List.of(result(10, 20, 7, 1, 2, 2, 2, 0, 6)), outputs.read);
        }
    }

    @Test
    void seekingAfterAPositionThatHoldsNoOutputIsRefused()
    {
        JournalDirectory.openOrCreate(dir);
        final JournalDirectory directory = IndexedJournals.indexed(dir); // single output documents; batched: BatchedOutputJournalTest
        try (OutputJournal output = OutputJournal.openForAppend(directory))
        {
            final long only = output.appendLate(lateFields(1, 2, 3, 4, 5));
            final IllegalStateException refused = assertThrows(IllegalStateException.class, () -> output.seekAfter(only + 1));
            assertTrue(refused.getMessage().contains("has no output at position " + (only + 1)), refused.getMessage());
        }
    }

    static LateFields lateFields(final long eventId, final long eventTime, final int keyId, final long value, final long offset)
    {
        return new Late(eventId, eventTime, keyId, value, offset);
    }

    /** A late event's fields as a value, for tests. */
    record Late(long eventId, long eventTime, int keyId, long value, long offset) implements LateFields
    {
    }
}
