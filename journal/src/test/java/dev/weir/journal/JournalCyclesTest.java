package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.weir.journal.codec.EventConsumer;
import dev.weir.journal.schema.JournalSchema;

/**
 * A minutely journal appended to under a test clock that moves a minute at a time: its events land in one
 * cycle file per minute, {@link JournalCycles} lists them with contiguous offsets and their counts, and after
 * the oldest file is deleted by hand it reports the new oldest offset, and a reader refuses to seek to an offset
 * that was in it instead of silently jumping ahead.
 */
class JournalCyclesTest
{
    private static final long START = Instant.parse("2026-12-01T10:00:00Z").toEpochMilli();
    private static final int CYCLES = 4;
    private static final int PER_CYCLE = 1_000;

    @TempDir
    Path dir;

    private final AtomicLong now = new AtomicLong(START + 5_000);

    @AfterEach
    void restoreClock()
    {
        JournalClock.useForTests(null); // the JVM's own clock, however many times a test installed one
    }

    private List<Long> appendOverMinutes(final Path journal)
    {
        JournalClock.useForTests(JournalClock.of(now::get));
        final List<Long> firstOffsets = new ArrayList<>();
        try (EventJournal events = EventJournal.openOrCreate(journal, null, JournalRollCycle.MINUTELY))
        {
            for (int c = 0; c < CYCLES; c++)
            {
                for (int i = 0; i < PER_CYCLE; i++)
                {
                    final long offset = events.append(c * PER_CYCLE + i, now.get(), "k" + (i % 10), i);
                    if (i == 0)
                    {
                        firstOffsets.add(offset);
                    }
                }
                now.addAndGet(60_000);
            }
        }
        return firstOffsets;
    }

    @Test
    void eachMinuteOfTheTestClockIsOneCycleFileListedWithContiguousOffsetsAndItsCount()
    {
        final Path journal = dir.resolve("j");
        final List<Long> firstOffsets = appendOverMinutes(journal);
        final JournalDirectory directory = JournalDirectory.open(journal);
        final JournalCycles cycles = JournalCycles.events(directory);
        assertEquals(CYCLES, cycles.cycles().size(), String.valueOf(cycles.cycles()));
        final int firstCycle = (int)((START + 5_000) / 60_000);
        long documents = 0;
        for (int c = 0; c < CYCLES; c++)
        {
            final JournalCycles.Cycle cycle = cycles.cycles().get(c);
            assertEquals(firstCycle + c, cycle.cycle());
            assertEquals(JournalRollCycle.MINUTELY.fileName(firstCycle + c), cycle.fileName());
            assertEquals(START + c * 60_000L, cycle.startMillis());
            assertEquals(START + (c + 1) * 60_000L, cycle.endMillis());
            assertTrue(Files.isRegularFile(directory.eventsQueue().resolve(cycle.fileName())));
            assertTrue(cycle.bytes() > 0);
            assertEquals(PER_CYCLE, cycle.documents(), "cycle " + c);
            assertEquals(firstOffsets.get(c), cycle.firstOffset());
            final JournalOffsets offsets = directory.offsets();
            assertEquals(offsets.offset(offsets.index(cycle.firstOffset()) + cycle.documents() - 1, offsets.maxSlots() - 1), cycle.lastOffset(),
                "the highest offset its last document can hold");
            documents += cycle.documents();
        }
        assertEquals(CYCLES * PER_CYCLE, documents);
        assertEquals(firstOffsets.get(0), cycles.oldestOffset());
        assertEquals(cycles.cycles().stream().mapToLong(JournalCycles.Cycle::bytes).sum(), cycles.totalBytes());
        assertEquals(0, JournalCycles.results(directory).cycles().size());
        assertEquals(-1, JournalCycles.results(directory.pipeline("none")).oldestOffset());
        assertTrue(!Files.exists(directory.pipeline("none").resultsQueue()), "listing creates nothing");
    }

    @Test
    void afterTheOldestCycleFileIsDeletedTheOldestOffsetMovesOnAndASeekIntoItIsRefused() throws Exception
    {
        final Path journal = dir.resolve("j");
        final List<Long> firstOffsets = appendOverMinutes(journal);
        final JournalDirectory directory = JournalDirectory.open(journal);
        try (JournalReader live = JournalReader.open(directory)) // a queue instance whose listing predates the deletion
        {
            assertEquals(firstOffsets.get(0), live.firstOffset());
            final JournalCycles.Cycle oldest = JournalCycles.events(directory).cycles().get(0);
            Files.delete(directory.eventsQueue().resolve(oldest.fileName()));

            final JournalCycles after = JournalCycles.events(directory);
            assertEquals(CYCLES - 1, after.cycles().size());
            assertEquals(firstOffsets.get(1), after.oldestOffset());

            final long deleted = firstOffsets.get(0) + 10;
            final OffsetUnavailableException refused = assertThrows(OffsetUnavailableException.class, () -> live.seek(deleted));
            assertEquals(deleted, refused.requested());
            assertEquals(firstOffsets.get(1), refused.oldestAvailable());
            assertTrue(refused.getMessage().contains("no longer holds offset " + deleted + ": the oldest offset available is "
                + firstOffsets.get(1)), refused.getMessage());
            assertEquals(firstOffsets.get(1), live.firstOffset());
        }
        try (JournalReader reader = JournalReader.open(directory))
        {
            assertThrows(OffsetUnavailableException.class, () -> reader.seek(firstOffsets.get(0)));
            reader.seek(firstOffsets.get(1));
            final long[] first = {-1, -1};
            reader.poll((EventConsumer)(offset, id, time, key, value) ->
            {
                if (first[0] < 0)
                {
                    first[0] = offset;
                    first[1] = id;
                }
            }, 1);
            assertEquals(firstOffsets.get(1), first[0]);
            assertEquals(PER_CYCLE, first[1]);
        }
    }

    @Test
    void anOutputPositionInADeletedCycleFileIsRefusedByTheReadCursor() throws Exception
    {
        JournalClock.useForTests(JournalClock.of(now::get));
        JournalDirectory.create(dir.resolve("j"), JournalSchema.DEFAULT, JournalRollCycle.MINUTELY);
        final JournalDirectory directory = IndexedJournals.indexed(dir.resolve("j")); // one output document each, written at once
        final List<Long> positions = new ArrayList<>();
        try (OutputJournal output = OutputJournal.openForAppend(directory))
        {
            for (int c = 0; c < 3; c++)
            {
                for (int i = 0; i < 5; i++)
                {
                    positions.add(output.appendResult(new StoredResult(0, 10, i, 1, i, i, i, 1, c * 5 + i, 0), false));
                }
                now.addAndGet(60_000);
            }
        }
        final JournalCycles results = JournalCycles.results(directory);
        assertEquals(3, results.cycles().size());
        assertEquals(positions.get(5), results.cycles().get(1).firstOffset());
        Files.delete(directory.resultsQueue().resolve(results.cycles().get(0).fileName()));
        assertEquals(positions.get(5), JournalCycles.results(directory).oldestOffset());
        try (OutputJournal output = OutputJournal.open(directory))
        {
            final OffsetUnavailableException refused = assertThrows(OffsetUnavailableException.class, () -> output.seekAfter(positions.get(2)));
            assertEquals(positions.get(5), refused.oldestAvailable());
            output.seekAfter(positions.get(5));
            final long[] sourceOffset = {-1};
            output.next(o -> sourceOffset[0] = o.result().sourceOffset());
            assertEquals(6, sourceOffset[0], "the output after position 5");
        }
    }
}
