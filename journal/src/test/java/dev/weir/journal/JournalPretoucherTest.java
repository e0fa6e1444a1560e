package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.weir.journal.codec.EventConsumer;

class JournalPretoucherTest
{
    private static final int EVENTS = 600_000;

    @TempDir
    Path dir;

    @Test
    void aJournalAppendedWhileThePretoucherRunsHoldsTheSameBytesAndEventsAsOneWithout() throws IOException
    {
        final long touched;
        try (EventJournal journal = EventJournal.openOrCreate(dir.resolve("touched")))
        {
            final JournalPretoucher pretoucher = journal.pretouch(JournalPretoucher.MAX_AHEAD_BYTES);
            append(journal, true);
            touched = pretoucher.pagesTouched();
            assertNull(pretoucher.failure());
        }
        try (EventJournal journal = EventJournal.openOrCreate(dir.resolve("plain")))
        {
            append(journal, false);
        }
        assertTrue(touched > 256, "the pretoucher touched pages while the appender wrote: " + touched);
        assertArrayEquals(cycleBytes(dir.resolve("plain")), cycleBytes(dir.resolve("touched")), "the same queue bytes");
        assertEquals(EVENTS, readBack(dir.resolve("touched")));
    }

    @Test
    void thePretouchersLoopAllocatesNothingOnceWarm()
    {
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        try (EventJournal journal = EventJournal.openOrCreate(dir.resolve("j")))
        {
            final JournalPretoucher pretoucher = journal.pretouch(JournalPretoucher.MAX_AHEAD_BYTES);
            final int key = journal.keyId("k");
            long i = 0;
            for (; i < 300_000; i++)
            {
                journal.append(i, i, key, i);
            }
            final long before = threads.getThreadAllocatedBytes(pretoucher.threadId());
            final long touchedBefore = pretoucher.pagesTouched();
            // at least 1 s, about 5,000 rounds of its loop on a quiet machine, and until it touched a page more (a busy
            // machine may not run its thread at first); appends paced so the journal stays small
            final long start = System.nanoTime();
            final long deadline = start + TimeUnit.SECONDS.toNanos(120);
            while (System.nanoTime() - start < TimeUnit.SECONDS.toNanos(1) || pretoucher.pagesTouched() <= touchedBefore)
            {
                assertTrue(System.nanoTime() - deadline < 0, "it kept touching: no page touched within 120 s");
                journal.append(i, i, key, i);
                i++;
                if ((i & 255) == 0)
                {
                    LockSupport.parkNanos(50_000);
                }
            }
            final long allocated = threads.getThreadAllocatedBytes(pretoucher.threadId()) - before;
            // a few log lines of Chronicle's on its thread (a slow mapping of a new chunk on a busy machine: about 1 KB
            // each) stay within the bound; a string per round (35,040 B in 0.3 s when this test was written) does not
            assertTrue(allocated < 16 * 1024, "bytes allocated by the pretoucher's thread in " + (System.nanoTime() - start) / 1_000_000
                + " ms: " + allocated);
        }
    }

    @Test
    void refusesADistanceItCouldNotKeepWithinTheReservedSpace()
    {
        try (EventJournal journal = EventJournal.openOrCreate(dir.resolve("j")))
        {
            assertThrows(IllegalArgumentException.class, () -> journal.pretouch(JournalPretoucher.MAX_AHEAD_BYTES + 4096));
            assertThrows(IllegalArgumentException.class, () -> journal.pretouch(100));
            journal.pretouch(64 << 10).close();
            assertThrows(IllegalStateException.class, () -> journal.pretouch(64 << 10));
        }
    }

    private static void append(final EventJournal journal, final boolean slowly)
    {
        final int[] keys = new int[1000];
        for (int k = 0; k < keys.length; k++)
        {
            keys[k] = journal.keyId("card-" + k);
        }
        for (int i = 0; i < EVENTS; i++)
        {
            journal.append(i, 1_000L + i, keys[i % keys.length], i * 7L - 3);
            if (slowly && (i & 1023) == 0)
            {
                Thread.yield(); // let the pretoucher run between the appender's pages, as in a live feed
            }
        }
    }

    private static long readBack(final Path journalDir)
    {
        try (JournalReader reader = JournalReader.open(JournalDirectory.open(journalDir));
             KeyDictionary keys = KeyDictionary.open(JournalDirectory.open(journalDir)))
        {
            final long[] next = {0};
            final EventConsumer check = (offset, eventId, eventTime, keyId, value) ->
            {
                final long i = next[0]++;
                assertEquals(i, eventId);
                assertEquals(1_000L + i, eventTime);
                assertEquals(i * 7L - 3, value);
                assertEquals("card-" + (i % 1000), keys.name(keyId));
            };
            while (reader.poll(check, 4096) > 0)
            {
                // checked in the consumer
            }
            return next[0];
        }
    }

    /** The events queue's cycle file, without its trailing zeros (the file's length is the mapping's, not content). */
    private static byte[] cycleBytes(final Path journalDir) throws IOException
    {
        final Path cycle;
        try (Stream<Path> files = Files.list(JournalDirectory.open(journalDir).eventsQueue()))
        {
            cycle = files.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        final byte[] bytes = Files.readAllBytes(cycle);
        int end = bytes.length;
        while (end > 0 && bytes[end - 1] == 0)
        {
            end--;
        }
        return Arrays.copyOf(bytes, end);
    }
}
