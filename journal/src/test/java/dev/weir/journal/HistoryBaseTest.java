package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import net.openhft.chronicle.core.time.SetTimeProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.weir.journal.schema.JournalSchema;

/**
 * A journal with a history base reads exactly as the same journal without one: dictionaries, ingest progress,
 * unterminated lines, counts, key tuples and events, with the base at a cycle start, inside an ingest block and
 * after the cycles before it were deleted; a corrupt or foreign base is refused; advancing twice equals once.
 */
class HistoryBaseTest
{
    private static final JournalSchema SCHEMA = JournalSchema.parse("merchant:string,fee:long,country:string,amount:decimal(2)");
    private static final long DAY = 86_400_000L;
    private static final List<int[]> KEYS = List.of(new int[] {0, 1}, new int[] {2});

    @TempDir
    Path dir;

    /** The offsets of every document, and of each cycle's first. */
    private final List<Long> offsets = new ArrayList<>();
    private final List<Long> cycleStarts = new ArrayList<>();
    private int blockStart;

    @AfterEach
    void systemClock()
    {
        JournalClock.useForTests(null);
    }

    @Test
    void aJournalWithABaseReadsAsWithoutOneAtEveryBase() throws IOException
    {
        final Path journal = seed(dir.resolve("j"));
        final JournalDirectory directory = JournalDirectory.open(journal);
        for (final long b : new long[] {cycleStarts.get(1), offsets.get(blockStart + 3), cycleStarts.get(2)})
        {
            Files.deleteIfExists(HistoryBase.file(directory));
            final String expected = observe(directory, b);
            HistoryBase.advance(directory, b, KEYS, 0, null);
            assertEquals(expected, observe(directory, b), "with the base at " + b + ", the snapshot kept");
            try (JournalReader reader = JournalReader.open(directory))
            {
                final long[] firstRead = {-1};
                reader.poll((EventViewConsumer)(offset, event) -> firstRead[0] = firstRead[0] < 0 ? offset : firstRead[0], 1);
                assertTrue(firstRead[0] >= b, "the reader starts at the base, " + b + ", not at " + firstRead[0]);
                reader.seek(-1).poll((EventViewConsumer)(offset, event) -> firstRead[0] = offset, 1);
                assertTrue(firstRead[0] >= b, "seek(-1) goes to the base, " + b + ", not to " + firstRead[0]);
            }
            Files.deleteIfExists(journal.resolve(DictionarySnapshot.FILE));
            assertEquals(expected, observe(directory, b), "with the base at " + b + ", no snapshot");
        }
    }

    @Test
    void theJournalReadsTheSameOnceTheCyclesBeforeTheBaseAreDeleted() throws IOException
    {
        final Path journal = seed(dir.resolve("j"));
        final JournalDirectory directory = JournalDirectory.open(journal);
        final long b = cycleStarts.get(1);
        final String expected = observe(directory, b);
        final Map<String, Long> nextLines = IngestLog.nextLines(directory);
        final HistoryBase.Summary summary = HistoryBase.advance(directory, b, KEYS, 1234, dir.resolve("archive"));
        assertEquals(b, summary.firstOffset());
        assertEquals(offsets.get(offsets.indexOf(b) - 1), summary.lastRemovedOffset());
        assertEquals(offsets.indexOf(b), summary.removedDocuments());
        assertEquals(1234, summary.removedBytes());
        assertEquals(dir.resolve("archive"), summary.archive());
        assertTrue(summary.maxRemovedEventTime() >= 0);
        final List<Path> cycles;
        try (Stream<Path> files = Files.list(directory.eventsQueue()))
        {
            cycles = files.filter(f -> f.toString().endsWith(".cq4")).sorted().toList();
        }
        assertEquals(3, cycles.size(), "three roll cycles: " + cycles);
        Files.delete(cycles.get(0));
        Files.deleteIfExists(journal.resolve(DictionarySnapshot.FILE));
        final Path aside = dir.resolve("aside");
        Files.move(HistoryBase.file(directory), aside);
        assertFalse(expected.equals(observeOrFailure(directory, b)), "without the base, the deletion shows");
        Files.move(aside, HistoryBase.file(directory));
        assertEquals(expected, observe(directory, b));
        try (EventJournal writer = EventJournal.open(directory))
        {
            assertTrue(writer.dictionaries().snapshotStatus().contains("from the history base at offset " + b),
                writer.dictionaries().snapshotStatus());
        }
        assertEquals(expected, observe(directory, b), "again, with the snapshot the appender wrote");
        // an ingest resumed after the deletion goes on where it stopped
        try (EventJournal writer = EventJournal.open(directory))
        {
            writer.appendIngestStart("file-b", nextLines.get("file-b"));
            writer.appendIngested(writer.row().eventId(9_999).eventTime(9_999).setString(0, writer.stringId(0, "m-new"))
                .setLong(1, 1).setString(2, writer.stringId(2, "c0")).setLong(3, 1), nextLines.get("file-b"), -1);
        }
        assertEquals(nextLines.get("file-b") + 1, IngestLog.nextLine(directory, "file-b"));
        assertEquals(nextLines.get("file-a"), IngestLog.nextLine(directory, "file-a"));
        try (StringDictionaries dictionaries = StringDictionaries.open(directory))
        {
            assertEquals("m-new", dictionaries.dictionary(0).name(dictionaries.dictionary(0).size() - 1));
        }
        final HistoryBase.Summary twice = HistoryBase.advance(directory, cycleStarts.get(2), KEYS, 10, null);
        assertEquals(1244, twice.removedBytes(), "cumulative");
        assertEquals(offsets.indexOf(cycleStarts.get(2)), twice.removedDocuments());
    }

    @Test
    void advancingTwiceEqualsAdvancingOnce() throws IOException
    {
        final Path journal = seed(dir.resolve("j"));
        final JournalDirectory directory = JournalDirectory.open(journal);
        final long[] whole = KeyTuples.readBefore(directory, KEYS.get(0), Long.MAX_VALUE).components();
        HistoryBase.advance(directory, offsets.get(blockStart + 3), KEYS, 100, null);
        HistoryBase.advance(directory, cycleStarts.get(2), KEYS, 200, null);
        final byte[] twice = Files.readAllBytes(HistoryBase.file(directory));
        Files.delete(HistoryBase.file(directory));
        HistoryBase.advance(directory, cycleStarts.get(2), KEYS, 300, null);
        assertArrayEquals(twice, Files.readAllBytes(HistoryBase.file(directory)));

        // a key-column set new to the base is numbered from the old base's first offset, by readers and by advance alike
        final int[] late = {2, 1};
        final long[] fromOldBase = KeyTuples.readBefore(directory, late, Long.MAX_VALUE).components();
        final KeyTuples byHand = new KeyTuples(SCHEMA, late);
        try (JournalReader reader = JournalReader.open(directory).seek(cycleStarts.get(2)))
        {
            reader.poll((EventViewConsumer)(offset, event) -> byHand.idOf(event), 100_000);
        }
        assertArrayEquals(byHand.components(), fromOldBase);
        HistoryBase.advance(directory, offsets.get(offsets.size() - 5), List.of(late), 0, null);
        assertArrayEquals(fromOldBase, KeyTuples.readBefore(directory, late, Long.MAX_VALUE).components());
        assertArrayEquals(whole, KeyTuples.readBefore(directory, KEYS.get(0), Long.MAX_VALUE).components(), "a kept table numbers from the start");
    }

    @Test
    void aCorruptTornOrForeignBaseIsRefused() throws IOException
    {
        final Path journal = seed(dir.resolve("j"));
        final JournalDirectory directory = JournalDirectory.open(journal);
        HistoryBase.advance(directory, cycleStarts.get(1), KEYS, 0, null);
        final Path file = HistoryBase.file(directory);
        final byte[] good = Files.readAllBytes(file);

        final byte[] flipped = good.clone();
        flipped[good.length / 2] ^= 0x10;
        Files.write(file, flipped);
        assertRefused(directory, "checksum mismatch");

        Files.write(file, Arrays.copyOf(good, good.length - 7));
        assertRefused(directory, "corrupt or torn");

        Files.write(file, Arrays.copyOf(good, 5));
        assertRefused(directory, "torn");

        final Path other = dir.resolve("other");
        try (EventJournal writer = EventJournal.openOrCreate(other, SCHEMA))
        {
            writer.append(writer.row().eventId(1).eventTime(1).setString(0, writer.stringId(0, "m")).setLong(1, 1)
                .setString(2, writer.stringId(2, "c")).setLong(3, 1));
        }
        Files.write(other.resolve(HistoryBase.FILE), good);
        assertRefused(JournalDirectory.open(other), "of another journal");

        Files.write(file, good);
        assertEquals(cycleStarts.get(1), HistoryBase.read(directory).orElseThrow().firstOffset());
    }

    @Test
    void aBaseIsWrittenWhileTheAppenderAppends() throws IOException
    {
        final Path journal = seed(dir.resolve("j"));
        final JournalDirectory directory = JournalDirectory.open(journal);
        final long b = offsets.get(blockStart + 5);
        try (EventJournal writer = EventJournal.open(directory))
        {
            final SplittableRandom random = new SplittableRandom(5);
            writer.appendIngestStart("file-c", 0);
            for (int i = 0; i < 50; i++)
            {
                offsets.add(writer.appendIngested(event(writer, random, 7, i), i, -1));
                if (i == 20)
                {
                    HistoryBase.advance(directory, b, KEYS, 0, null); // a second queue instance, as another process's
                }
            }
        }
        final String withBase = observe(directory, b);
        final Path aside = dir.resolve("aside");
        Files.move(HistoryBase.file(directory), aside);
        assertEquals(observe(directory, b), withBase);
    }

    @Test
    void aJournalWithoutABaseHasNone() throws IOException
    {
        final JournalDirectory directory = JournalDirectory.open(seed(dir.resolve("j")));
        assertFalse(HistoryBase.read(directory).isPresent());
    }

    private static void assertRefused(final JournalDirectory directory, final String why)
    {
        for (final Runnable open : List.<Runnable>of(
            () -> HistoryBase.read(directory),
            () -> StringDictionaries.open(directory).close(),
            () -> JournalReader.open(directory).close(),
            () -> IngestLog.nextLines(directory),
            () -> KeyTupleReader.open(directory, new int[] {2}).close()))
        {
            final JournalRefusedException refused = assertThrows(JournalRefusedException.class, open::run);
            assertTrue(refused.getMessage().contains(why) && refused.getMessage().contains(HistoryBase.FILE)
                && refused.getMessage().contains("restore"), refused.getMessage());
        }
    }

    /**
     * Three daily cycles of ingests of two sources (rejected lines, an unterminated last line, a block straddling
     * the second cycle's start), events of another appender and heartbeats.
     */
    private Path seed(final Path journal)
    {
        final SetTimeProvider clock = new SetTimeProvider(1_700_000_000_000L * 1_000_000L);
        JournalClock.useForTests(JournalClock.of(clock::currentTimeMillis));
        final SplittableRandom random = new SplittableRandom(11);
        long line = 0;
        try (EventJournal writer = EventJournal.openOrCreate(journal, SCHEMA))
        {
            for (int cycle = 0; cycle < 3; cycle++)
            {
                final String source = cycle == 1 ? "file-a" : "file-b";
                for (int i = 0; i < 40; i++)
                {
                    final long offset;
                    if (i == 0 && cycle != 1)
                    {
                        offset = writer.appendIngestStart(source, line);
                    }
                    else if (i % 9 == 4)
                    {
                        offset = writer.appendRejected(line++, "bad", "x" + i);
                    }
                    else if (i % 13 == 6)
                    {
                        offset = writer.appendHeartbeat(cycle * 1000L + i);
                    }
                    else if (i % 11 == 7)
                    {
                        offset = writer.append(event(writer, random, cycle, i)); // another appender
                    }
                    else
                    {
                        offset = writer.appendIngested(event(writer, random, cycle, i), line++, cycle == 0 && i == 39 ? 17 : -1);
                    }
                    if (i == 0)
                    {
                        cycleStarts.add(offset);
                    }
                    offsets.add(offset);
                }
                if (cycle == 0)
                {
                    blockStart = offsets.size();
                    offsets.add(writer.appendIngestStart("file-a", 0));
                    line = 0;
                    for (int i = 0; i < 10; i++)
                    {
                        offsets.add(writer.appendIngested(event(writer, random, cycle, 100 + i), line++, -1));
                    }
                }
                if (cycle == 1)
                {
                    line = 40; // file-b resumes
                }
                clock.advanceMillis(DAY);
            }
        }
        return journal;
    }

    private static EventRow event(final EventJournal writer, final SplittableRandom random, final int cycle, final int i)
    {
        return writer.row().eventId(cycle * 1000L + i).eventTime(cycle * 1000L + i)
            .setString(0, writer.stringId(0, "m" + cycle + "-" + random.nextInt(8)))
            .setLong(1, random.nextInt(3)).setString(2, writer.stringId(2, "c" + random.nextInt(3))).setLong(3, i);
    }

    private String observeOrFailure(final JournalDirectory directory, final long b)
    {
        try
        {
            return observe(directory, b);
        }
        catch (final RuntimeException | AssertionError failed)
        {
            return failed.toString();
        }
    }

    /** Everything a reader of the journal gets, for the offsets at or after {@code b}. */
    private String observe(final JournalDirectory directory, final long b)
    {
        final StringBuilder seen = new StringBuilder();
        try (StringDictionaries dictionaries = StringDictionaries.open(directory))
        {
            for (final int column : new int[] {0, 2})
            {
                final KeyDictionary dictionary = dictionaries.dictionary(column);
                seen.append("dictionary ").append(column).append(':');
                for (int id = 0; id < dictionary.size(); id++)
                {
                    seen.append(' ').append(dictionary.name(id));
                }
                seen.append('\n');
            }
        }
        seen.append("next lines ").append(IngestLog.nextLines(directory)).append('\n');
        for (final String source : List.of("file-a", "file-b", "file-c"))
        {
            seen.append("unterminated ").append(source).append(' ')
                .append(Arrays.toString(IngestLog.unterminated(directory, source))).append('\n');
        }
        seen.append("counts ").append(IngestLog.counts(directory)).append('\n');
        seen.append("counts by scan ").append(IngestLog.countsByScan(directory)).append('\n');
        for (final int[] key : KEYS)
        {
            for (final long before : offsets)
            {
                if (before >= b && offsets.indexOf(before) % 7 == 0)
                {
                    seen.append("tuples ").append(Arrays.toString(key)).append(" before ").append(before).append(':')
                        .append(Arrays.toString(KeyTuples.readBefore(directory, key, before).components())).append('\n');
                }
            }
            final KeyTuples whole = KeyTuples.readBefore(directory, key, Long.MAX_VALUE);
            try (KeyTupleReader lazy = KeyTupleReader.open(directory, key))
            {
                seen.append("lazy ").append(Arrays.toString(key)).append(':');
                for (int id = whole.size() - 1; id >= 0; id--)
                {
                    seen.append(' ').append(lazy.component(id, 0));
                }
                seen.append('\n');
            }
        }
        try (JournalReader reader = JournalReader.open(directory))
        {
            seen.append("events:");
            final long floor = b;
            reader.poll((EventViewConsumer)(offset, event) ->
            {
                if (offset >= floor)
                {
                    seen.append(' ').append(offset).append('/').append(event.eventId());
                }
            }, 100_000);
            seen.append('\n');
        }
        return seen.toString();
    }
}
