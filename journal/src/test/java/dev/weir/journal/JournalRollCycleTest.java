package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.queue.rollcycles.TestRollCycles;

import dev.weir.journal.codec.EventConsumer;
import dev.weir.journal.schema.JournalSchema;

/**
 * A journal's roll cycle: recorded in its marker at creation, given back on every open, daily for a marker
 * without one, refused when another is asked for or when the queues on disk roll otherwise; and the
 * translation of Chronicle's "cycle full" failure.
 */
class JournalRollCycleTest
{
    @TempDir
    Path dir;

    @Test
    void theRollCycleIsRecordedAtCreationAndGivenBackOnEveryOpen() throws IOException
    {
        final Path journal = dir.resolve("j");
        try (EventJournal events = EventJournal.openOrCreate(journal, null, JournalRollCycle.MINUTELY))
        {
            events.append(1, 1_000, "a", 1);
        }
        assertTrue(Files.readAllLines(journal.resolve(JournalDirectory.MARKER_FILE)).contains("roll-cycle=minutely"));
        final JournalDirectory reopened = JournalDirectory.open(journal);
        assertSame(JournalRollCycle.MINUTELY, reopened.rollCycle());
        assertSame(JournalRollCycle.MINUTELY, reopened.pipeline("other").rollCycle());
        assertSame(JournalRollCycle.MINUTELY, JournalDirectory.openOrCreate(journal, null, null).rollCycle());
        assertSame(JournalRollCycle.MINUTELY, JournalDirectory.openOrCreate(journal, null, JournalRollCycle.MINUTELY).rollCycle());
        try (JournalReader reader = JournalReader.open(reopened))
        {
            assertEquals(JournalRollCycle.MINUTELY.cycleOf(reader.lastOffset()), JournalRollCycle.MINUTELY.cycleOf(reader.firstOffset()));
        }

        final JournalRefusedException changed = assertThrows(JournalRefusedException.class,
            () -> EventJournal.openOrCreate(journal, null, JournalRollCycle.DAILY));
        assertTrue(changed.getMessage().contains("was created with roll cycle minutely, not daily; a journal's roll cycle cannot change"),
            changed.getMessage());
    }

    @Test
    void aJournalWhoseMarkerHasNoRollCycleIsDaily() throws IOException
    {
        final Path journal = dir.resolve("old");
        JournalDirectory.create(journal);
        final Path marker = journal.resolve(JournalDirectory.MARKER_FILE);
        final List<String> lines = Files.readAllLines(marker, StandardCharsets.UTF_8);
        // the marker as every journal made before roll cycles were recorded has it: format, version, id
        Files.write(marker, List.of(JournalDirectory.FORMAT_LINE, "version=" + JournalDirectory.FORMAT_VERSION, lines.get(2)));
        assertSame(JournalRollCycle.DAILY, JournalDirectory.open(journal).rollCycle());
        try (EventJournal events = EventJournal.openOrCreate(journal, null, JournalRollCycle.DAILY))
        {
            events.append(1, 1_000, "a", 1);
        }
        try (JournalReader reader = JournalReader.open(JournalDirectory.open(journal)))
        {
            assertEquals(1, reader.poll((EventConsumer)(offset, id, time, key, value) -> { }, 10));
        }
        assertThrows(JournalRefusedException.class, () -> JournalDirectory.openOrCreate(journal, null, JournalRollCycle.HOURLY));
    }

    @Test
    void queuesThatRollOtherwiseThanTheMarkerSaysAreRefused() throws IOException
    {
        final Path journal = dir.resolve("j");
        try (EventJournal events = EventJournal.openOrCreate(journal, null, JournalRollCycle.MINUTELY))
        {
            events.append(1, 1_000, "a", 1);
        }
        withoutRollCycleLine(journal); // the marker now says daily; the queues roll minutely
        final JournalDirectory directory = JournalDirectory.open(journal);
        final JournalRefusedException refused = assertThrows(JournalRefusedException.class, () -> JournalReader.open(directory));
        assertTrue(refused.getMessage().contains("rolls with Chronicle's MINUTELY"), refused.getMessage());
        assertTrue(refused.getMessage().contains("roll cycle daily"), refused.getMessage());
    }

    @Test
    void aBadRollCycleInTheMarkerIsRefused() throws IOException
    {
        final Path journal = dir.resolve("j");
        JournalDirectory.create(journal, JournalSchema.DEFAULT, JournalRollCycle.HOURLY);
        final Path marker = journal.resolve(JournalDirectory.MARKER_FILE);
        Files.writeString(marker, Files.readString(marker).replace("roll-cycle=hourly", "roll-cycle=weekly"));
        final JournalRefusedException refused = assertThrows(JournalRefusedException.class, () -> JournalDirectory.open(journal));
        assertTrue(refused.getMessage().contains("roll cycle cannot be read"), refused.getMessage());
    }

    @Test
    void namesLengthsAndCapacities()
    {
        assertEquals(List.of("minutely", "hourly", "daily"),
            List.of(JournalRollCycle.values()).stream().map(JournalRollCycle::cliName).collect(Collectors.toList()));
        assertEquals(60_000, JournalRollCycle.MINUTELY.lengthMillis());
        assertEquals(3_600_000, JournalRollCycle.HOURLY.lengthMillis());
        assertEquals(86_400_000, JournalRollCycle.DAILY.lengthMillis());
        assertEquals(1L << 26, JournalRollCycle.MINUTELY.capacity());
        assertEquals((1L << 32) - 1, JournalRollCycle.HOURLY.capacity());
        assertEquals(JournalRollCycle.DAILY, JournalRollCycle.DEFAULT);
        assertSame(JournalRollCycle.HOURLY, JournalRollCycle.parse("hourly"));
        assertThrows(IllegalArgumentException.class, () -> JournalRollCycle.parse("HOURLY"));
        assertEquals("20261201-1822.cq4", JournalRollCycle.MINUTELY.fileName((int)(java.time.Instant.parse("2026-12-01T18:22:30Z").toEpochMilli() / 60_000)));
    }

    @Test
    void chroniclesCycleFullFailureBecomesACycleFullExceptionNamingTheRollCycleAndTheLongerOnes()
    {
        // what Chronicle really throws when a cycle is full: a test roll cycle of 64 documents a day
        IllegalStateException full = null;
        try (SingleChronicleQueue queue = SingleChronicleQueueBuilder.single(dir.resolve("tiny").toFile())
            .rollCycle(TestRollCycles.TEST_DAILY).build();
             ExcerptAppender appender = queue.createAppender())
        {
            for (int i = 0; i <= TestRollCycles.TEST_DAILY.maxMessagesPerCycle() && full == null; i++)
            {
                try
                {
                    appender.writeText("d" + i);
                }
                catch (final IllegalStateException ex)
                {
                    full = ex;
                }
            }
        }
        assertTrue(full != null, "Chronicle refused the document past the cycle's capacity");

        final RuntimeException minutely = JournalRollCycle.MINUTELY.translateAppendFailure(full, "J");
        assertTrue(minutely instanceof CycleFullException, String.valueOf(minutely));
        assertSame(JournalRollCycle.MINUTELY, ((CycleFullException)minutely).rollCycle());
        assertSame(full, minutely.getCause());
        assertTrue(minutely.getMessage().contains("journal J is full for this minute: roll cycle minutely holds at most 67,108,864 documents"),
            minutely.getMessage());
        assertTrue(minutely.getMessage().contains("--roll-cycle hourly or daily"), minutely.getMessage());
        assertTrue(JournalRollCycle.DAILY.translateAppendFailure(full, "J").getMessage().contains("roll cycle daily"));
        assertFalse(JournalRollCycle.DAILY.translateAppendFailure(full, "J").getMessage().contains("--roll-cycle"));

        final IllegalStateException other = new IllegalStateException("something else");
        assertSame(other, JournalRollCycle.MINUTELY.translateAppendFailure(other, "J"));
    }

    @Test
    void aDailyJournalsMarkerHasNoRollCycleLineAsBefore() throws IOException
    {
        final Path journal = dir.resolve("daily");
        JournalDirectory.create(journal, JournalSchema.DEFAULT, JournalRollCycle.DAILY);
        assertTrue(Files.readAllLines(journal.resolve(JournalDirectory.MARKER_FILE)).stream().noneMatch(l -> l.startsWith("roll-cycle")));
        assertSame(JournalRollCycle.DAILY, JournalDirectory.open(journal).rollCycle());
    }

    private static void withoutRollCycleLine(final Path journal) throws IOException
    {
        final Path marker = journal.resolve(JournalDirectory.MARKER_FILE);
        final List<String> lines = Files.readAllLines(marker, StandardCharsets.UTF_8).stream()
            .filter(l -> !l.startsWith("roll-cycle=")).collect(Collectors.toList());
        Files.write(marker, lines, StandardCharsets.UTF_8);
    }
}
