package dev.weir.engine.retention;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalClock;
import dev.weir.journal.JournalCycles;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRollCycle;
import dev.weir.journal.StringDictionaries;
import dev.weir.journal.retention.HeldRemovedCycles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dictionaries kept open while the journal rolls on ({@link StringDictionaries#releasePassedCycles()}, issue 28,
 * item 7): once released they keep no cycle open, and when retention then removed the cycles after the last
 * document they read, a string defined there (never read by them) still resolves to its id, from the history base,
 * and the counts equal a fresh open's. A minutely journal under a test clock.
 */
class ReleasedDictionariesTest
{
    private static final long MINUTE = 60_000;

    @TempDir
    Path dir;

    private final AtomicLong now = new AtomicLong(Instant.parse("2026-12-01T10:00:00Z").toEpochMilli() + 1_000);

    @AfterEach
    void systemClock()
    {
        JournalClock.useForTests(null);
    }

    @Test
    void releasedDictionariesKeepNoCycleOpenAndResolveStringsOfRemovedCyclesFromTheBase() throws Exception
    {
        JournalClock.useForTests(JournalClock.of(now::get));
        final Path path = dir.resolve("j");
        append(path, "a", JournalRollCycle.MINUTELY);
        final JournalDirectory journal = JournalDirectory.open(path);
        try (StringDictionaries dictionaries = StringDictionaries.open(journal))
        {
            assertEquals(3, dictionaries.keyDictionary().idOf("a3"), "read in the first cycle");
            append(path, "b", null); // defined in a cycle these dictionaries never read
            append(path, "a", null);
            append(path, "a", null);
            dictionaries.releasePassedCycles();

            final String firstCycle = JournalCycles.events(journal).cycles().get(0).fileName();
            JournalRetention.apply(journal, 0, null, now.get(), false);
            assertFalse(Files.exists(journal.eventsQueue().resolve(firstCycle)), "retention removed the first cycle");
            assertEquals(1, JournalCycles.events(journal).cycles().size(), "only the newest cycle left");
            awaitNoneHeld(path);

            try (StringDictionaries fresh = StringDictionaries.open(journal))
            {
                final int b7 = fresh.keyDictionary().idOf("b7");
                assertTrue(b7 >= 10, "b7 was defined after the a keys: " + b7);
                assertEquals(b7, dictionaries.keyDictionary().idOf("b7"), "a string of a removed cycle, from the history base");
                assertEquals("b7", dictionaries.keyDictionary().name(b7));
                assertEquals(fresh.counts(), dictionaries.counts(), "the counts, through the newest cycle");
            }
            awaitNoneHeld(path);
        }
    }

    @Test
    void dictionariesStillInARemovedCycleResolveTheStringsOfTheCyclesRemovedAfterItFromTheBase() throws Exception
    {
        JournalClock.useForTests(JournalClock.of(now::get));
        final Path path = dir.resolve("j");
        append(path, "a", JournalRollCycle.MINUTELY);
        final JournalDirectory journal = JournalDirectory.open(path);
        try (StringDictionaries dictionaries = StringDictionaries.open(journal))
        {
            assertEquals(3, dictionaries.keyDictionary().idOf("a3"), "read in the first cycle");
            append(path, "b", null); // defined in a cycle these dictionaries never read
            append(path, "c", null);
            append(path, "a", null);
            // not released: the scan still stands in the first cycle when retention removes it and the next two

            JournalRetention.apply(journal, 0, null, now.get(), false);
            assertEquals(1, JournalCycles.events(journal).cycles().size(), "only the newest cycle left");

            try (StringDictionaries fresh = StringDictionaries.open(journal))
            {
                for (final String text : List.of("b7", "c2"))
                {
                    final int id = fresh.keyDictionary().idOf(text);
                    assertEquals(text, dictionaries.keyDictionary().name(id), "a string of a removed cycle the scan was carried over");
                }
                assertEquals(fresh.counts(), dictionaries.counts(), "the counts, through the newest cycle");
            }
        }
    }

    /** Append a cycle of 10 events (keys PREFIX0..PREFIX9), then move the clock on a minute. */
    private void append(final Path path, final String prefix, final JournalRollCycle create)
    {
        try (EventJournal writer = create == null ? EventJournal.open(JournalDirectory.open(path)) : EventJournal.openOrCreate(path, null, create))
        {
            for (int i = 0; i < 10; i++)
            {
                writer.append(i, now.get() + i, prefix + i, i);
            }
        }
        now.addAndGet(MINUTE);
    }

    private static void awaitNoneHeld(final Path path) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!HeldRemovedCycles.inThisProcess(path).isEmpty() && System.nanoTime() < deadline)
        {
            Thread.sleep(20); // Chronicle lets go of a file on a background thread
        }
        assertEquals(List.of(), HeldRemovedCycles.inThisProcess(path), "removed cycle files this process still maps or holds open");
    }
}
