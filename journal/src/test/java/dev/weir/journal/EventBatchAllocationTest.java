package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.weir.journal.codec.EventConsumer;
import dev.weir.journal.schema.JournalSchema;

/**
 * The bulk appender and the reads of its documents allocate nothing once warm: ingested events of the default columns
 * with known key ids ({@link EventBatch#appendIngested(long, long, long, int, long, long)}), six-column rows
 * ({@link EventBatch#append(EventRow)}), and both polls over {@link dev.weir.journal.codec.DocumentType#EVENT_BATCH}
 * documents at a limit that stops inside batches. Measured with the thread's allocated-bytes counter, the least of a few
 * rounds; the bound allows what mapping the next chunks of a queue file allocates, never a byte per event.
 */
class EventBatchAllocationTest
{
    private static final int MEASURED = 200_000;
    private static final int ROUNDS = 3;
    private static final int KEYS = 1_000;
    /**
     * Under two bytes per hundred events (4,000 B): room for the chunk mappings a round crosses, which on a loaded
     * machine build and log Chronicle's "Took N ms to add mapping" message on the measured thread (2.2 KB for an
     * ingest in CI); a byte per event would be 200,000.
     */
    private static final long BOUND = 2L * MEASURED / 100;
    /** Polls of 37 events per round: 4 x 5,000 x 37 = 740,000 of the 800,000 events appended (a warm-up and 3 rounds of 200,000), never reaching the end. */
    private static final int POLLS = 5_000;

    @TempDir
    Path dir;

    @Test
    void addingIngestedEventsToBatchesAndReadingThemBackAllocateNothing()
    {
        try (EventJournal journal = EventJournal.openOrCreate(dir.resolve("journal")))
        {
            assertTrue(journal.directory().offsets().batched());
            final int[] ids = new int[KEYS];
            for (int k = 0; k < KEYS; k++)
            {
                ids[k] = journal.keyId("k" + k);
            }
            final long[] n = {0};
            final long appended = leastAllocated(() ->
            {
                final long i = n[0]++;
                journal.batch().appendIngested(2 + i, i, 1_000_000 + i, ids[(int)(i % KEYS)], i, -1);
            });
            journal.batch().flush();
            assertTrue(appended < BOUND, "bytes allocated by " + MEASURED + " batched appends: " + appended);

            try (JournalReader reader = JournalReader.open(journal.directory()))
            {
                final long[] sum = {0};
                final EventConsumer consumer = (offset, eventId, eventTime, keyId, value) -> sum[0] += value;
                final long read = leastAllocated(() -> assertEquals(37, reader.poll(consumer, 37)), POLLS);
                assertTrue(read < BOUND, "bytes allocated by " + POLLS + " polls of 37 events: " + read);
                assertTrue(sum[0] > 0);
            }
        }
    }

    @Test
    void addingRowsToBatchesAndPollingViewsAllocateNothing()
    {
        final JournalSchema schema = SchemaJournalTest.PAYMENTS;
        try (EventJournal journal = EventJournal.openOrCreate(dir.resolve("journal"), schema))
        {
            final int[] columns = {0, 1, 2, 5};
            final int[][] ids = new int[schema.size()][KEYS];
            for (int k = 0; k < KEYS; k++)
            {
                for (final int column : columns)
                {
                    ids[column][k] = journal.stringId(column, schema.column(column).name() + "-" + k);
                }
            }
            final EventRow row = journal.row();
            final long[] n = {0};
            final long appended = leastAllocated(() ->
            {
                final long i = n[0]++;
                final int k = (int)(i % KEYS);
                row.eventId(i).eventTime(1_000 + i).setString(0, ids[0][k]).setString(1, ids[1][k]).setString(2, ids[2][k])
                    .setLong(3, i).setLong(4, -i).setString(5, ids[5][k]);
                journal.batch().append(row);
            });
            journal.batch().flush();
            assertTrue(appended < BOUND, "bytes allocated by " + MEASURED + " batched rows: " + appended);

            try (JournalReader reader = JournalReader.open(journal.directory()))
            {
                final long[] sum = {0};
                final EventViewConsumer consumer = (offset, event) -> sum[0] += event.longColumn(3);
                final long read = leastAllocated(() -> assertEquals(37, reader.poll(consumer, 37)), POLLS);
                assertTrue(read < BOUND, "bytes allocated by " + POLLS + " polls of 37 views: " + read);
                assertEquals(true, sum[0] > 0);
            }
        }
    }

    private static long leastAllocated(final Runnable step)
    {
        return leastAllocated(step, MEASURED);
    }

    private static long leastAllocated(final Runnable step, final int measured)
    {
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        for (int i = 0; i < measured; i++)
        {
            step.run(); // warm-up
        }
        final long threadId = Thread.currentThread().getId();
        long least = Long.MAX_VALUE;
        for (int round = 0; round < ROUNDS; round++)
        {
            final long before = threads.getThreadAllocatedBytes(threadId);
            for (int i = 0; i < measured; i++)
            {
                step.run();
            }
            least = Math.min(least, threads.getThreadAllocatedBytes(threadId) - before);
        }
        return least;
    }
}
