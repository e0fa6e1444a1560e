package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.weir.journal.codec.ResultFields;
import dev.weir.journal.schema.JournalSchema;

/**
 * Appending to a real journal allocates nothing once warm: an event with a known key id
 * ({@link EventJournal#append(long, long, int, long)}), a six-column row with known string ids
 * ({@link EventJournal#append(EventRow)}), a table row ({@link TableAppender#upsert}, {@link TableAppender#delete}, its
 * strings set from a reused {@link CharSequence}) and a result ({@link OutputJournal#appendResult}); and so does
 * reading whole events and table rows back ({@link JournalReader#poll(EventViewConsumer, int)}).
 * Each measured round appends several MiB, so it crosses the {@link AppendReserve}'s refills (one per
 * {@link AppendReserve#AHEAD} appended), which the codec-only {@link CodecAllocationTest} never reaches.
 * Measured with the thread's allocated-bytes counter, the least of a few rounds.
 */
class AppendAllocationTest
{
    private static final int WARM_UP = 300_000;
    private static final int MEASURED = 200_000;
    private static final int ROUNDS = 3;
    private static final int KEYS = 1_000;
    /**
     * Under two bytes per hundred appends (4,000 B): what mapping the next chunks of a queue file allocates (a round
     * appends 6 to 14 MiB and crosses several chunks: 0 to 216 B per round measured on a quiet machine; a mapping
     * slower than 2 ms builds Chronicle's "Took N ms to add mapping" message, and logs it, on the appending thread:
     * 2.2 KB for an ingest in CI), never an allocation per append or per reserve refill (a buffer view per 64 KiB
     * was 6,528 B per round for events and 15,232 B for results).
     */
    private static final long BOUND = 2L * MEASURED / 100;

    @TempDir
    Path dir;

    @Test
    void appendingAnEventAllocatesNothing()
    {
        try (EventJournal journal = EventJournal.openOrCreate(dir.resolve("journal")))
        {
            final int[] ids = new int[KEYS];
            for (int k = 0; k < KEYS; k++)
            {
                ids[k] = journal.keyId("k" + k);
            }
            final long[] n = {0};
            final long allocated = leastAllocated(() ->
            {
                final long i = n[0]++;
                journal.append(i, 1_000_000 + i, ids[(int)(i % KEYS)], i);
            });
            assertTrue(allocated < BOUND, "bytes allocated by " + MEASURED + " event appends (least of " + ROUNDS + " rounds)" + ": " + allocated);
        }
    }

    @Test
    void appendingARowAndPollingViewsAllocateNothing()
    {
        final JournalSchema schema = SchemaJournalTest.PAYMENTS;
        final int strings = 4;
        try (EventJournal journal = EventJournal.openOrCreate(dir.resolve("journal"), schema))
        {
            final int[][] ids = new int[schema.size()][KEYS];
            for (int k = 0; k < KEYS; k++)
            {
                for (int s = 0; s < strings; s++)
                {
                    final int column = new int[] {0, 1, 2, 5}[s];
                    ids[column][k] = journal.stringId(column, schema.column(column).name() + "-" + k);
                }
            }
            final EventRow row = journal.row();
            final long[] n = {0};
            final long appended = leastAllocated(() ->
            {
                final long i = n[0]++;
                final int k = (int)(i % KEYS);
                journal.append(row.eventId(i).eventTime(1_000_000 + i).setString(0, ids[0][k]).setString(1, ids[1][(k * 7) % KEYS])
                    .setString(2, ids[2][k / 10]).setLong(3, i * 100).setLong(4, i & 7).setString(5, ids[5][k % 3]));
            });
            assertTrue(appended < BOUND, "bytes allocated by " + MEASURED + " six-column row appends (least of " + ROUNDS + " rounds)" + ": " + appended);

            try (JournalReader reader = JournalReader.open(journal.directory()))
            {
                final long[] sum = {0};
                final EventViewConsumer consumer = (offset, e) -> sum[0] += e.eventId() + e.eventTime() + e.stringId(0) + e.stringId(1)
                    + e.stringId(2) + e.longColumn(3) + e.longColumn(4) + e.stringId(5);
                final long polled = leastAllocated(() -> reader.poll(consumer, 1));
                assertEquals(0, polled, "bytes allocated by polling " + MEASURED + " whole events (least of " + ROUNDS + " rounds)");
                assertEquals(0, reader.poll(consumer, Integer.MAX_VALUE), "each measured poll read one of the events appended above");
                assertEquals(true, sum[0] != 0);
            }
        }
    }

    @Test
    void upsertingTableRowsAndPollingThemAllocateNothing()
    {
        JournalDirectory.openOrCreateForTable(dir.resolve("journal"), TableJournalMarkerTest.CARDS, null);
        try (EventJournal journal = EventJournal.open(JournalDirectory.open(dir.resolve("journal"))))
        {
            final TableAppender cards = journal.table("cards");
            final TableRow row = cards.row();
            final int card = row.column("card");
            final int home = row.column("home");
            final int limit = row.column("limit");
            final int segment = row.column("segment");
            final StringBuilder key = new StringBuilder(16);
            final String[] homes = {"DE", "FR", "\u00d6sterreich"};
            final long[] n = {0};
            final long appended = leastAllocated(() ->
            {
                final long i = n[0]++;
                key.setLength(0);
                key.append("card-").append(i % KEYS);
                row.clear().validFrom(1_000_000 + i).setString(card, key).setString(home, homes[(int)(i % 3)]).setLong(limit, i * 100)
                    .setString(segment, "gold");
                if ((i & 15) == 15)
                {
                    cards.delete(row);
                }
                else
                {
                    cards.upsert(row);
                }
            });
            assertTrue(appended < BOUND, "bytes allocated by " + MEASURED + " table row upserts and deletes (least of " + ROUNDS + " rounds)"
                + ": " + appended);

            try (JournalReader reader = JournalReader.open(journal.directory()))
            {
                final long[] sum = {0};
                final EventViewConsumer consumer = new EventViewConsumer()
                {
                    @Override
                    public void onEvent(final long offset, final dev.weir.journal.schema.EventView event)
                    {
                        throw new AssertionError("no events");
                    }

                    @Override
                    public void onTableRow(final long offset, final dev.weir.journal.schema.TableRowView r)
                    {
                        sum[0] += r.validFrom() + r.longColumn(limit) + r.string(card).length() + r.string(home).length() + r.string(segment).length()
                            + (r.tombstone() ? 1 : 0);
                    }
                };
                final long polled = leastAllocated(() -> reader.poll(consumer, 1));
                assertEquals(0, polled, "bytes allocated by polling " + MEASURED + " table rows (least of " + ROUNDS + " rounds)");
                assertEquals(0, reader.poll(consumer, Integer.MAX_VALUE), "each measured poll read one of the rows appended above");
                assertTrue(sum[0] != 0);
            }
        }
    }

    @Test
    void appendingAResultAllocatesNothing()
    {
        final JournalDirectory journal = JournalDirectory.openOrCreate(dir.resolve("journal"));
        try (OutputJournal output = OutputJournal.openForAppend(journal))
        {
            final WritableResult result = new WritableResult();
            final long[] n = {0};
            final long allocated = leastAllocated(() ->
            {
                final long i = n[0]++;
                output.appendResult(result.at(i), (i & 1) == 0);
            });
            assertTrue(allocated < BOUND, "bytes allocated by " + MEASURED + " result appends (least of " + ROUNDS + " rounds)" + ": " + allocated);
        }
    }

    @Test
    void appendingAndFlushingBatchedResultsAllocatesNothing()
    {
        final JournalDirectory journal = BatchedJournals.create(dir.resolve("journal"));
        try (OutputJournal output = OutputJournal.openForAppend(journal))
        {
            final WritableResult result = new WritableResult();
            final long[] n = {0};
            final long allocated = leastAllocated(() ->
            {
                final long i = n[0]++;
                output.appendResult(result.at(i), (i & 1) == 0);
                if (i % 37 == 0)
                {
                    output.flush(); // batches of 37, and of 64 where a flush is 64 outputs away
                }
            });
            assertTrue(allocated < BOUND, "bytes allocated by " + MEASURED + " batched result appends (least of " + ROUNDS + " rounds)" + ": "
                + allocated);
        }
    }

    @Test
    void readingBatchedOutputsWithTheCursorAllocatesNothingPerOutput()
    {
        final JournalDirectory journal = BatchedJournals.create(dir.resolve("journal"));
        try (OutputJournal output = OutputJournal.openForAppend(journal))
        {
            final WritableResult result = new WritableResult();
            for (long i = 0; i < 2L * (WARM_UP + ROUNDS * MEASURED); i++)
            {
                output.appendResult(result.at(i), (i & 1) == 0);
                if (i % 50 == 0)
                {
                    output.flush();
                }
            }
        }
        try (OutputJournal output = OutputJournal.open(journal))
        {
            final long[] sum = {0};
            final OutputConsumer consumer = stored -> sum[0] += stored.isResult() ? stored.result().count() : 1;
            output.seekAfter(OutputJournal.NONE);
            final long allocated = leastAllocated(() -> output.next(consumer));
            assertTrue(allocated < BOUND, "bytes allocated by reading " + MEASURED + " batched outputs with the cursor (least of " + ROUNDS
                + " rounds): " + allocated);
            assertTrue(sum[0] > 0, "the outputs were read");
        }
    }

    @Test
    void readingAllOutputsAllocatesNothingPerOutput()
    {
        final JournalDirectory journal = JournalDirectory.openOrCreate(dir.resolve("journal"));
        try (OutputJournal output = OutputJournal.openForAppend(journal))
        {
            final WritableResult result = new WritableResult();
            for (long i = 0; i < MEASURED; i++)
            {
                output.appendResult(result.at(i), (i & 1) == 0);
            }
        }
        try (OutputJournal output = OutputJournal.open(journal))
        {
            final long[] sum = {0};
            final OutputConsumer consumer = stored -> sum[0] += stored.isResult() ? stored.result().count() : 1;
            final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
            final long threadId = Thread.currentThread().getId();
            long least = Long.MAX_VALUE;
            for (int round = 0; round < ROUNDS + 2; round++) // the first rounds warm up
            {
                final long before = threads.getThreadAllocatedBytes(threadId);
                assertEquals(MEASURED, output.readAll(consumer));
                least = Math.min(least, threads.getThreadAllocatedBytes(threadId) - before);
            }
            // a tailer per readAll (8 KiB measured alone; up to ~240 KiB after other tests have polluted Chronicle's
            // profiles, e.g. HistoryBaseTest's tailers over several cycles), never an allocation per output read: the
            // smallest object is 16 B, so one per output would be 3.2 MB; the bound is 4 B per output
            assertTrue(least < 4L * MEASURED, "bytes allocated by reading " + MEASURED + " outputs back (least of " + (ROUNDS + 2) + " rounds)" + ": " + least);
            assertTrue(sum[0] > 0, "the outputs were read");
        }
    }

    @Test
    void readingAllBatchedOutputsAllocatesNothingPerOutput()
    {
        final JournalDirectory journal = BatchedJournals.create(dir.resolve("journal"));
        try (OutputJournal output = OutputJournal.openForAppend(journal))
        {
            final WritableResult result = new WritableResult();
            for (long i = 0; i < MEASURED; i++)
            {
                output.appendResult(result.at(i), (i & 1) == 0);
            }
        }
        try (OutputJournal output = OutputJournal.open(journal))
        {
            final long[] sum = {0};
            final OutputConsumer consumer = stored -> sum[0] += stored.isResult() ? stored.result().count() : 1;
            final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
            final long threadId = Thread.currentThread().getId();
            long least = Long.MAX_VALUE;
            for (int round = 0; round < ROUNDS + 2; round++) // the first rounds warm up
            {
                final long before = threads.getThreadAllocatedBytes(threadId);
                assertEquals(MEASURED, output.readAll(consumer));
                least = Math.min(least, threads.getThreadAllocatedBytes(threadId) - before);
            }
            // a tailer per readAll, as for single documents: the bound is 4 B per output
            assertTrue(least < 4L * MEASURED, "bytes allocated by reading " + MEASURED + " batched outputs back (least of " + (ROUNDS + 2)
                + " rounds)" + ": " + least);
            assertTrue(sum[0] > 0, "the outputs were read");
        }
    }

    private static long leastAllocated(final Runnable append)
    {
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        for (int i = 0; i < WARM_UP; i++)
        {
            append.run();
        }
        // the least of a few rounds: a round can see a one-off allocation (a late JIT recompilation, a new
        // cycle file), while an allocation per append or per reserve refill shows in every round
        final long threadId = Thread.currentThread().getId();
        long least = Long.MAX_VALUE;
        for (int round = 0; round < ROUNDS; round++)
        {
            final long before = threads.getThreadAllocatedBytes(threadId);
            for (int i = 0; i < MEASURED; i++)
            {
                append.run();
            }
            least = Math.min(least, threads.getThreadAllocatedBytes(threadId) - before);
        }
        return least;
    }

    /** A result whose fields follow a counter, without allocating. */
    private static final class WritableResult implements ResultFields
    {
        private long i;

        WritableResult at(final long i)
        {
            this.i = i;
            return this;
        }

        @Override
        public long windowStart()
        {
            return i * 10;
        }

        @Override
        public long windowEnd()
        {
            return i * 10 + 10_000;
        }

        @Override
        public int keyId()
        {
            return (int)(i % KEYS);
        }

        @Override
        public long count()
        {
            return 3;
        }

        @Override
        public long sum()
        {
            return i;
        }

        @Override
        public long min()
        {
            return 1;
        }

        @Override
        public long max()
        {
            return 99;
        }

        @Override
        public int version()
        {
            return 0;
        }

        @Override
        public long sourceOffset()
        {
            return i;
        }

        @Override
        public long aggregate()
        {
            return i;
        }
    }
}
