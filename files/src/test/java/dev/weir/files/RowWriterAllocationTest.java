package dev.weir.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.weir.engine.fired.FiredResult;
import dev.weir.engine.fired.SkippedEvent;
import dev.weir.journal.codec.ResultKind;
import dev.weir.journal.files.AtomicTextFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writing rows to a file allocates nothing per row once every key was seen: CSV and JSON results (a
 * decimal column, several aggregates, named aggregates with empty values, kinds, a composite key's quoting cached per key
 * id) and late events,
 * formatted into the file's buffer and written to it in large writes; instants as epoch milliseconds or ISO-8601 text.
 */
class RowWriterAllocationTest
{
    private static final int KEYS = 1_000;
    private static final int ROWS = 200_000;
    private static final int ROUNDS = 5;

    @TempDir
    Path dir;

    @Test
    void writingRowsAllocatesNothingPerRow()
    {
        writeRows(format());
    }

    @Test
    void writingRowsWithIsoTimesAllocatesNothingPerRow()
    {
        writeRows(format().withIsoTimes());
    }

    @Test
    void writingNamedAggregateRowsAllocatesNothingPerRow()
    {
        writeRows(ResultRow.named(KeyColumns.single("merchant", id -> "m\u00e9,\"" + id + "\""), new String[] {"open", "volume"}, new int[] {2, 0})
            .withKinds());
    }

    private static ResultRow format()
    {
        return new ResultRow(KeyColumns.single("merchant", id -> "m\u00e9,\"" + id + "\""), "amount", 2,
            new String[] {"mean", "distinct"}, new int[] {2, 0}).withKinds();
    }

    private void writeRows(final ResultRow format)
    {
        final RowWriter writer = format.writer();
        final FiredResult r = new FiredResult().withAggregates(format.storedAggregates());
        final SkippedEvent e = new SkippedEvent();
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long threadId = Thread.currentThread().getId();
        try (AtomicTextFile csv = new AtomicTextFile(dir.resolve("results.csv"));
             AtomicTextFile json = new AtomicTextFile(dir.resolve("results.jsonl"), 64 * 1024);
             AtomicTextFile late = new AtomicTextFile(dir.resolve("late.csv")))
        {
            long allocated = Long.MAX_VALUE;
            for (int round = 0; round < ROUNDS; round++)
            {
                final long before = threads.getThreadAllocatedBytes(threadId);
                for (int i = 0; i < ROWS; i++)
                {
                    r.window(1_700_000_000_000L + i * 1000L, 1_700_000_001_000L + i * 1000L).keyId(i % KEYS).count(i).sum(-123_456_789L * i)
                        .min(Long.MIN_VALUE + i).max(i * 7L).version(i & 3).kind((i & 1) == 0 ? ResultKind.FINAL : ResultKind.UPDATE)
                        .withAggregate(0, i * 13L).withAggregate(1, i);
                    if (format.named())
                    {
                        r.withAggregate(2, i & 3); // the presence mask: each aggregate empty in some rows
                    }
                    writer.csv(csv.row(), r);
                    writer.json(json.row(), r);
                    writer.late(late.row(), e.set(i, 1_700_000_000_000L + i, i % KEYS, -i, i));
                }
                allocated = Math.min(allocated, threads.getThreadAllocatedBytes(threadId) - before);
            }
            assertEquals(0, allocated, "bytes allocated by " + ROWS + " CSV, JSON and late rows written to files (least of " + ROUNDS + " rounds)");
            assertEquals(ROWS * (long)ROUNDS, csv.lines());
        }
        assertTrue(Files.notExists(dir.resolve("results.csv")), "never committed");
    }
}
