package dev.weir.engine.retention;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import dev.weir.engine.Weir;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.DeliveryPositions;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalClock;
import dev.weir.journal.JournalCycles;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalOffsets;
import dev.weir.journal.JournalRollCycle;
import dev.weir.journal.OffsetUnavailableException;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.retention.OutputHistory;
import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retention of the output journal of a pipeline run three times, a minute apart, over a minutely journal of batched
 * documents (marker version 5) under a test clock: a delivery record at a position inside a batched document, or at the
 * last output of a cycle, holds that cycle; once
 * it names the next cycle's first output the cycle goes, and {@link OutputHistory} counts its outputs (not its
 * documents) and names the next cycle's first position, after which the cursor resumes while a removed position is
 * refused as unavailable.
 */
class BatchedOutputRetentionTest
{
    private static final long MINUTE = 60_000L;
    private static final long START = Instant.parse("2026-12-01T10:00:00Z").toEpochMilli();
    private static final int EVENTS = 3_000;
    private static final String TABLE = "weir_results";
    private static final String TARGET = "jdbc:postgresql://127.0.0.1:5432/weir";

    @TempDir
    Path dir;

    private final AtomicLong now = new AtomicLong(START);

    @AfterEach
    void systemClock()
    {
        JournalClock.useForTests(null);
    }

    @Test
    void aDeliveryInsideABatchedDocumentHoldsItsCycleAndTheOutputHistoryCountsOutputs() throws IOException
    {
        JournalClock.useForTests(JournalClock.of(now::get));
        final Path path = dir.resolve("j");
        JournalDirectory.openOrCreate(path, JournalSchema.DEFAULT, JournalRollCycle.MINUTELY);
        final Path marker = path.resolve(JournalDirectory.MARKER_FILE);
        final List<String> lines = new ArrayList<>(Files.readAllLines(marker, StandardCharsets.UTF_8));
        lines.set(1, "version=" + JournalDirectory.FORMAT_VERSION_BATCHED);
        Files.write(marker, lines, StandardCharsets.UTF_8);
        final JournalDirectory journal = JournalDirectory.open(path);
        assertTrue(journal.offsets().batched());

        for (int c = 0; c < 3; c++)
        {
            now.set(START + 1_000); // every event in the first cycle: the newest events cycle, which stays
            try (EventJournal events = EventJournal.open(journal))
            {
                for (int i = c * EVENTS; i < (c + 1) * EVENTS; i++)
                {
                    events.append(i, 10_000L + 100L * i, events.keyId("k" + i % 7), i);
                }
            }
            now.set(START + c * MINUTE + 30_000); // each run's outputs in the cycle of its minute
            Weir.pipeline().journal(path).window(TumblingWindows.of(1_000)).outOfOrderness(0).latePolicy(LatePolicy.SIDE).checkpointEvery(100)
                .resumeAfterEnd(true) // the events of the second and third runs come after the end: late, side outputs
                .build().runToEnd();
        }
        final List<Long> positions = new ArrayList<>();
        try (OutputJournal output = OutputJournal.open(journal))
        {
            output.seekAfter(OutputJournal.NONE);
            while (output.next(stored -> { }) != 0)
            {
                positions.add(output.lastReadPosition());
            }
        }
        final List<JournalCycles.Cycle> cycles = JournalCycles.results(journal).cycles();
        assertEquals(3, cycles.size(), cycles.toString());
        final int firstOfCycle1 = positions.indexOf(cycles.get(1).firstOffset());
        assertTrue(firstOfCycle1 > 100 && cycles.get(0).documents() < firstOfCycle1 / 10,
            firstOfCycle1 + " outputs in " + cycles.get(0).documents() + " documents in the first cycle");
        final long inside = positions.get(firstOfCycle1 / 2);
        assertEquals(JournalOffsets.SLOTTED.index(inside), JournalOffsets.SLOTTED.index(positions.get(firstOfCycle1 / 2 + 1)), "inside a batch");
        now.set(START + 20 * MINUTE);

        DeliveryPositions.register(journal.pipelineRoot(), TABLE, TARGET, inside, 0);
        JournalRetention.apply(journal, 0, null, now.get(), false);
        assertEquals(cycles, JournalCycles.results(journal).cycles(), "a delivery inside a batched document holds its cycle");

        DeliveryPositions.advance(journal.pipelineRoot(), TABLE, TARGET, positions.get(firstOfCycle1 - 1), 0);
        JournalRetention.apply(journal, 0, null, now.get(), false);
        assertEquals(cycles, JournalCycles.results(journal).cycles(), "a delivery at a cycle's last output still needs that document");

        DeliveryPositions.advance(journal.pipelineRoot(), TABLE, TARGET, positions.get(firstOfCycle1), 0);
        final RetentionReport removed = JournalRetention.apply(journal, 0, null, now.get(), false);
        assertEquals(cycles.subList(1, 3), JournalCycles.results(journal).cycles(), removed.lines().toString());
        final OutputHistory history = OutputHistory.read(journal).orElseThrow();
        assertEquals(positions.get(firstOfCycle1), history.firstPosition());
        assertEquals(firstOfCycle1, history.removedOutputs(), "outputs, not documents");
        assertEquals(firstOfCycle1, history.removedResults());

        try (OutputJournal output = OutputJournal.open(journal))
        {
            output.seekAfter(positions.get(firstOfCycle1));
            assertTrue(output.next(stored -> { }) != 0);
            assertEquals(positions.get(firstOfCycle1 + 1), output.lastReadPosition());
            assertThrows(OffsetUnavailableException.class, () -> output.seekAfter(inside));
            assertEquals(positions.size() - firstOfCycle1, output.readAll(stored -> { }));
        }
    }
}
