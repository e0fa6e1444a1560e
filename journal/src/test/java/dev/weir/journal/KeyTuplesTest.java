package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.weir.journal.retention.HeldRemovedCycles;
import dev.weir.journal.schema.EventView;
import dev.weir.journal.schema.JournalSchema;

/**
 * Key tuples are numbered in order of first occurrence, the same by whoever reads the journal: checked
 * against a map of lists on many seeded tuples (through several growths of the table), by a table rebuilt
 * from the events before an offset, and by a lazily reading {@link KeyTupleReader}, which lets go of the cycles
 * it passed once the journal rolled on.
 */
class KeyTuplesTest
{
    private static final JournalSchema SCHEMA = JournalSchema.parse("merchant:string,fee:long,country:string,amount:decimal(2)");

    @TempDir
    Path dir;

    @Test
    void tuplesAreNumberedInOrderOfFirstOccurrence()
    {
        final KeyTuples tuples = new KeyTuples(SCHEMA, new int[] {2, 1});
        final Map<List<Long>, Integer> expected = new HashMap<>();
        final Row row = new Row();
        final SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 200_000; i++)
        {
            row.ids[2] = random.nextInt(300);
            row.longs[1] = random.nextLong(40) - 20;
            final int want = expected.computeIfAbsent(List.of(row.ids[2] * 1L, row.longs[1]), k -> expected.size());
            assertEquals(want, tuples.idOf(row), "event " + i);
        }
        assertEquals(expected.size(), tuples.size());
        expected.forEach((tuple, id) ->
        {
            assertEquals(tuple.get(0), tuples.component(id, 0));
            assertEquals(tuple.get(1), tuples.component(id, 1));
        });
        assertThrows(IllegalArgumentException.class, () -> tuples.component(tuples.size(), 0));
    }

    @Test
    void aKnownTupleIsFoundWithoutAllocating()
    {
        final KeyTuples tuples = new KeyTuples(SCHEMA, new int[] {0, 2, 3});
        final Row row = new Row();
        for (int i = 0; i < 5_000; i++)
        {
            row.ids[0] = i % 50;
            row.ids[2] = i % 7;
            row.longs[3] = i % 11;
            tuples.idOf(row);
        }
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        long least = Long.MAX_VALUE; // the least of five rounds: a one-off (the JIT replacing a method mid-loop) is not per lookup
        long sum = 0;
        for (int round = 0; round < 5; round++)
        {
            final long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
            for (int i = 0; i < 100_000; i++)
            {
                row.ids[0] = i % 50;
                row.ids[2] = i % 7;
                row.longs[3] = i % 11;
                sum += tuples.idOf(row);
            }
            least = Math.min(least, threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before);
        }
        assertEquals(0, least, "bytes allocated by 100,000 lookups (sum " + sum + ")");
    }

    @Test
    void theTuplesBeforeAnOffsetAndALazyReaderNumberAsTheWholeJournalDoes()
    {
        final Path journal = dir.resolve("j");
        final List<Long> offsets = new ArrayList<>();
        try (EventJournal writer = EventJournal.openOrCreate(journal, SCHEMA))
        {
            final SplittableRandom random = new SplittableRandom(3);
            for (int i = 0; i < 3_000; i++)
            {
                offsets.add(writer.append(writer.row().eventId(i).eventTime(i).setString(0, writer.stringId(0, "m" + random.nextInt(30)))
                    .setLong(1, random.nextInt(4)).setString(2, writer.stringId(2, "c" + random.nextInt(3))).setLong(3, i)));
            }
        }
        final JournalDirectory directory = JournalDirectory.open(journal);
        final int[] key = {0, 1};
        final KeyTuples whole = KeyTuples.readBefore(directory, key, Long.MAX_VALUE);
        final KeyTuples half = KeyTuples.readBefore(directory, key, offsets.get(1_500));
        final KeyTuples none = KeyTuples.readBefore(directory, key, offsets.get(0));
        assertEquals(0, none.size());
        assertEquals(120, whole.size(), "30 merchants by 4 fees");
        try (KeyTupleReader lazy = KeyTupleReader.open(directory, key);
             JournalReader reader = JournalReader.open(directory))
        {
            reader.seek(offsets.get(1_500));
            reader.poll((EventViewConsumer)(offset, event) -> half.idOf(event), 10_000); // the table numbers on from the offset
            assertEquals(whole.size(), half.size());
            for (int id = whole.size() - 1; id >= 0; id--) // the highest first: the lazy reader reads on to it
            {
                assertEquals(whole.component(id, 0), half.component(id, 0));
                assertEquals(whole.component(id, 1), half.component(id, 1));
                assertEquals(whole.component(id, 0), lazy.component(id, 0));
                assertEquals(whole.component(id, 1), lazy.component(id, 1));
            }
            assertThrows(IllegalArgumentException.class, () -> lazy.component(whole.size(), 0), "no such tuple in the journal");
        }
    }

    /** An event whose columns are set by the test. */
    /**
     * Issue 28, item 7: a lazy reader that read what it needed in the first cycle lets go of it once the journal
     * rolled on ({@link KeyTupleReader#releasePassedCycles()}, reading on to the newest cycle), so that a removed
     * first cycle is no longer mapped or open in this process; the tuples it met on the way still resolve.
     */
    @Test
    void aLazyReaderLetsGoOfTheCyclesItPassed() throws Exception
    {
        final AtomicLong now = new AtomicLong(1_764_000_000_000L);
        JournalClock.useForTests(JournalClock.of(now::get));
        try
        {
            final Path journal = dir.resolve("j");
            final int[] key = {0, 1};
            try (EventJournal writer = EventJournal.openOrCreate(journal, SCHEMA, JournalRollCycle.MINUTELY))
            {
                final JournalDirectory directory = JournalDirectory.open(journal);
                appendMinute(writer, now, "m");
                final Path firstCycle = directory.eventsQueue().resolve(JournalCycles.events(directory).cycles().get(0).fileName());
                try (KeyTupleReader lazy = KeyTupleReader.open(directory, key))
                {
                    assertEquals(writer.stringId(0, "m0"), lazy.component(0, 0), "read in the first cycle");
                    appendMinute(writer, now, "late");
                    appendMinute(writer, now, "m");
                    lazy.releasePassedCycles();
                    Files.delete(firstCycle); // as retention removes it
                    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                    while (!HeldRemovedCycles.inThisProcess(journal).isEmpty() && System.nanoTime() < deadline)
                    {
                        Thread.sleep(20); // Chronicle lets go of a file on a background thread
                    }
                    assertEquals(List.of(), HeldRemovedCycles.inThisProcess(journal), "removed cycle files this process maps or holds open");
                    assertEquals(writer.stringId(0, "late3"), lazy.component(8 + 3, 0), "a tuple met while reading on");
                }
            }
        }
        finally
        {
            JournalClock.useForTests(null);
        }
    }

    /** Append 8 events (merchants PREFIX0..PREFIX7, fee 0), then move the clock on a minute. */
    private static void appendMinute(final EventJournal writer, final AtomicLong now, final String prefix)
    {
        for (int i = 0; i < 8; i++)
        {
            writer.append(writer.row().eventId(i).eventTime(now.get()).setString(0, writer.stringId(0, prefix + i)).setLong(1, 0)
                .setString(2, writer.stringId(2, "c")).setLong(3, i));
        }
        now.addAndGet(60_000);
    }

    private static final class Row implements EventView
    {
        final long[] longs = new long[SCHEMA.size()];
        final int[] ids = new int[SCHEMA.size()];

        @Override
        public long eventId()
        {
            return 0;
        }

        @Override
        public long eventTime()
        {
            return 0;
        }

        @Override
        public long longColumn(final int column)
        {
            return longs[column];
        }

        @Override
        public int stringId(final int column)
        {
            return ids[column];
        }
    }
}
