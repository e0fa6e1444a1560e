package dev.weir.cli;

import static dev.weir.cli.PartitionReplays.part;
import static dev.weir.cli.PartitionReplays.replay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;

import dev.weir.journal.EventJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Partitions are only ever replaced by a complete recomputation. A replay of part of a journal's offsets
 * into {@code --output-dir} is refused and touches nothing; {@code weir replay --days} rewrites exactly the
 * named days' partitions with the bytes a full replay writes into them (sliding and session windows,
 * out-of-order and late input, re-fired versions, sessions across midnight), removes those days' stale
 * partitions that have no rows, and leaves every other partition byte for byte and mtime as it was.
 */
class DaysReplayTest
{
    private static final long DAY = 86_400_000L;
    private static final long NOV_28 = 1_795_824_000_000L; // 2026-11-28T00:00:00Z
    private static final long NOV_29 = NOV_28 + DAY;
    private static final FileTime LONG_AGO = FileTime.fromMillis(1_600_000_000_000L);

    @TempDir
    Path dir;

    /** Defect 3 as reported: a replay from day 2's first offset cut day 1's partition from 144 rows to 5. */
    @Test
    void aReplayOfPartOfTheOffsetsIsRefusedAndDestroysNoPartition() throws IOException
    {
        final Path journal = dir.resolve("journal");
        long firstOfDay2 = -1;
        long first = -1;
        long last = -1;
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            for (int i = 0; i < 2 * 8_640; i++)
            {
                final long time = NOV_29 + i * 10_000L;
                last = writer.append(i, time, "card-1", i % 100);
                first = first < 0 ? last : first;
                if (time == NOV_29 + DAY)
                {
                    firstOfDay2 = last;
                }
            }
        }
        final Path out = dir.resolve("out");
        assertEquals(0, replay(journal, out, "--window", "sliding:1h/10m").exit());
        assertEquals(1 + 144, Files.readAllLines(part(out, "2026-11-29")).size(), "header and 144 windows start on day 1");
        final Map<Path, byte[]> before = snapshot(out);
        ageAll(out);

        final Cli partial = replay(journal, out, "--window", "sliding:1h/10m", "--from", String.valueOf(firstOfDay2));
        assertEquals(2, partial.exit(), partial.out() + partial.err());
        assertTrue(partial.err().contains("--days"), partial.err());
        assertEquals(1, partial.errorLines(), partial.err());
        assertUnchanged(before, out);
        final Cli head = replay(journal, out, "--window", "sliding:1h/10m", "--to", String.valueOf(firstOfDay2));
        assertEquals(2, head.exit(), head.out() + head.err());
        assertUnchanged(before, out);

        final Cli whole = replay(journal, out, "--window", "sliding:1h/10m", "--from", String.valueOf(first), "--to", String.valueOf(last));
        assertEquals(0, whole.exit(), whole.err());
        assertEquals(before.keySet(), snapshot(out).keySet());
        before.forEach((file, bytes) -> assertArrayEquals(bytes, read(file), "an explicit range over every event is a full replay: " + file));

        final Path csv = dir.resolve("day2.csv");
        final Cli toFile = Cli.run("replay", "--journal", journal.toString(), "--window", "sliding:1h/10m", "--from",
            String.valueOf(firstOfDay2), "--results", csv.toString());
        assertEquals(0, toFile.exit(), "a partial replay into one results file is still allowed: " + toFile.err());
    }

    @Test
    void daysOfSlidingWindowsOverLateInputEqualAFullReplay() throws IOException
    {
        final Path journal = dir.resolve("journal");
        writeEvents(journal, 4, 20_000, 41);
        final List<String> replaced = List.of("2026-11-29", "2026-11-30");
        final Map<String, byte[]> full = againstFullReplay(journal, "2026-11-29..2026-11-30", replaced,
            "--window", "sliding:1h/10m", "--out-of-orderness", "30s", "--allowed-lateness", "2m");
        assertTrue(full.keySet().containsAll(List.of("2026-11-28", "2026-11-29", "2026-11-30", "2026-12-01")), full.keySet().toString());
        assertTrue(rows(full.get("2026-11-29")).stream().anyMatch(r -> !r.endsWith(",0")), "late events re-fired windows of the days replaced");
    }

    @Test
    void aDayOfSessionsAcrossMidnightWithDedupeEqualsAFullReplay() throws IOException
    {
        final Path journal = dir.resolve("journal");
        writeEvents(journal, 3, 150_000, 43);
        final String[] flags = {"--window", "session:10m", "--out-of-orderness", "1m", "--allowed-lateness", "5m", "--dedupe"};
        final Map<String, byte[]> full = againstFullReplay(journal, "2026-11-29", List.of("2026-11-29"), flags);
        final List<String> day = rows(full.get("2026-11-29"));
        assertTrue(day.stream().anyMatch(r -> Long.parseLong(r.split(",")[1]) > NOV_29 + DAY), "a session of the day ends on the next one");
        assertTrue(rows(full.get("2026-11-28")).stream().anyMatch(r -> Long.parseLong(r.split(",")[1]) > NOV_29),
            "a session of the day before runs into the day replayed (and is not its row)");
        assertTrue(day.stream().anyMatch(r -> !r.endsWith(",0")), "late events re-fired sessions of the day");
    }

    @Test
    void aDayWithoutRowsLosesItsStalePartitionAndOtherDaysAreUntouched() throws IOException
    {
        final Path journal = dir.resolve("journal");
        writeEvents(journal, 1, 60_000, 47); // 2026-11-28 only
        final Path out = dir.resolve("out");
        final Path stale = part(out, "2026-11-20");
        final Path other = part(out, "2026-11-28");
        Files.createDirectories(stale.getParent());
        Files.createDirectories(other.getParent());
        Files.writeString(stale, "stale\n");
        Files.writeString(other, "sentinel\n");
        final Path otherFormat = stale.resolveSibling("results.jsonl");
        Files.writeString(otherFormat, "another format's file\n");
        Files.setLastModifiedTime(other, LONG_AGO);

        final Cli empty = replay(journal, out, "--window", "tumbling:1h", "--days", "2026-11-19..2026-11-21");
        assertEquals(0, empty.exit(), empty.err());
        assertTrue(empty.out().contains("0 rows") && empty.out().contains("1 partition of a day without rows removed"), empty.out());
        assertFalse(Files.exists(stale), "a complete recomputation without rows means no partition");
        assertTrue(Files.exists(otherFormat), "only partitions of the format asked for are replaced or removed");
        assertEquals("sentinel\n", Files.readString(other));
        assertEquals(LONG_AGO, Files.getLastModifiedTime(other));

        Files.delete(otherFormat);
        assertEquals(0, replay(journal, out, "--window", "tumbling:1h", "--days", "2026-11-20").exit());
        assertFalse(Files.exists(stale.getParent()), "an emptied date directory goes too");
    }

    @Test
    void badDaysAreUsageErrors() throws IOException
    {
        final Path journal = dir.resolve("journal");
        writeEvents(journal, 1, 60_000, 53);
        final Path out = dir.resolve("out");
        final String[][] bad = {
            {"--days", "2026-11-30..2026-11-29"},
            {"--days", "2026-02-30"},
            {"--days", "yesterday"},
            {"--days", "2026-11-29.."},
            {"--days", "2026-11-29", "--from", "0"},
            {"--days", "2026-11-29", "--to", "100"},
        };
        for (final String[] flags : bad)
        {
            final String[] args = new String[flags.length + 2];
            args[0] = "--window";
            args[1] = "tumbling:1h";
            System.arraycopy(flags, 0, args, 2, flags.length);
            final Cli cli = replay(journal, out, args);
            assertEquals(2, cli.exit(), String.join(" ", flags) + ": " + cli.err());
            assertTrue(cli.err().startsWith("weir: ") && cli.err().contains("--days"), cli.err());
        }
        final Cli reversed = replay(journal, out, "--window", "tumbling:1h", "--days", "2026-11-30..2026-11-29");
        assertTrue(reversed.err().contains("2026-11-30 is after 2026-11-29"), reversed.err());
        final Cli toFile = Cli.run("replay", "--journal", journal.toString(), "--window", "tumbling:1h", "--days", "2026-11-28",
            "--results", dir.resolve("r.csv").toString());
        assertEquals(2, toFile.exit());
        assertTrue(toFile.err().contains("--days needs --output-dir"), toFile.err());
        assertFalse(Files.exists(out), "nothing written");
    }

    /**
     * Replay the whole journal into one directory, and only {@code days} into another that holds a sentinel
     * for every other partition and stale text for the days replaced; check the days replaced against the
     * full replay, byte for byte, and that every sentinel kept its bytes and mtime.
     *
     * @return the full replay's partitions by date.
     */
    private Map<String, byte[]> againstFullReplay(final Path journal, final String days, final List<String> replaced, final String... window)
        throws IOException
    {
        final Path fullDir = dir.resolve("full");
        final Cli fullRun = replay(journal, fullDir, window);
        assertEquals(0, fullRun.exit(), fullRun.err());
        final Map<String, byte[]> full = new TreeMap<>();
        snapshot(fullDir).forEach((file, bytes) -> full.put(file.getParent().getFileName().toString().substring("date=".length()), bytes));
        assertTrue(full.keySet().containsAll(replaced), full.keySet().toString());

        final Path out = dir.resolve("out");
        for (final String date : full.keySet())
        {
            final Path file = part(out, date);
            Files.createDirectories(file.getParent());
            Files.writeString(file, (replaced.contains(date) ? "stale " : "sentinel ") + date + "\n");
            Files.setLastModifiedTime(file, LONG_AGO);
        }
        final Cli daysRun = replay(journal, out, withDays(days, window));
        assertEquals(0, daysRun.exit(), daysRun.err());
        assertTrue(daysRun.out().contains("in " + replaced.size() + " partition"), daysRun.out());

        assertEquals(full.keySet().size(), snapshot(out).size(), "no other file appeared: " + snapshot(out).keySet());
        for (final String date : full.keySet())
        {
            final Path file = part(out, date);
            if (replaced.contains(date))
            {
                assertArrayEquals(full.get(date), read(file), "replaced with the full replay's bytes: " + date);
            }
            else
            {
                assertEquals("sentinel " + date + "\n", Files.readString(file), "untouched: " + date);
                assertEquals(LONG_AGO, Files.getLastModifiedTime(file), "untouched: " + date);
            }
        }
        return full;
    }

    private static String[] withDays(final String days, final String... window)
    {
        final String[] flags = new String[window.length + 2];
        System.arraycopy(window, 0, flags, 0, window.length);
        flags[window.length] = "--days";
        flags[window.length + 1] = days;
        return flags;
    }

    /**
     * Events over whole days from 2026-11-28, 5 keys, a mean gap of {@code meanGapMs}: most up to 20 s out
     * of order, 1 in 25 between 1 and 4 minutes late, 1 in 100 a repeated event id.
     */
    private static void writeEvents(final Path journal, final int days, final long meanGapMs, final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            long id = 0;
            for (long clock = NOV_28 + random.nextLong(meanGapMs); clock < NOV_28 + days * DAY; clock += 1 + random.nextLong(2 * meanGapMs))
            {
                final long lateBy = random.nextInt(25) == 0 ? 60_000 + random.nextInt(180_000) : random.nextInt(20_000);
                final long eventId = random.nextInt(100) == 0 && id > 0 ? id - 1 : id++;
                writer.append(eventId, Math.max(NOV_28, clock - lateBy), "card-" + random.nextInt(5), random.nextInt(1_000));
            }
        }
    }

    private static List<String> rows(final byte[] partition)
    {
        final List<String> lines = new String(partition, StandardCharsets.UTF_8).lines().toList();
        return lines.subList(1, lines.size());
    }

    private static Map<Path, byte[]> snapshot(final Path out) throws IOException
    {
        final Map<Path, byte[]> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(out))
        {
            for (final Path file : walk.filter(Files::isRegularFile).toList())
            {
                files.put(file, Files.readAllBytes(file));
            }
        }
        return files;
    }

    private static void ageAll(final Path out) throws IOException
    {
        for (final Path file : snapshot(out).keySet())
        {
            Files.setLastModifiedTime(file, LONG_AGO);
        }
    }

    private static void assertUnchanged(final Map<Path, byte[]> before, final Path out) throws IOException
    {
        final Map<Path, byte[]> now = snapshot(out);
        assertEquals(new ArrayList<>(before.keySet()), new ArrayList<>(now.keySet()), "the same files, no temporary left behind");
        for (final Map.Entry<Path, byte[]> file : before.entrySet())
        {
            assertArrayEquals(file.getValue(), now.get(file.getKey()), "bytes of " + file.getKey());
            assertEquals(LONG_AGO, Files.getLastModifiedTime(file.getKey()), "mtime of " + file.getKey());
        }
    }

    private static byte[] read(final Path file)
    {
        try
        {
            return Files.readAllBytes(file);
        }
        catch (final IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
    }
}
