package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import dev.weir.journal.JournalClock;
import dev.weir.journal.JournalCycles;
import dev.weir.journal.JournalDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A journal over five minutely cycles (made a test-clock minute apart), whose three oldest cycles {@code weir retain}
 * moved to an archive: a replay from a removed offset, and a {@code --days} rerun of a day a removed event belongs to,
 * are refused (exit 2) naming the oldest offset and day available and the archive; a replay from the start notes what
 * was removed; with {@code --archive} it replays to the very bytes a replay of the journal before retention wrote,
 * and an archive missing a cycle or of another journal is refused.
 */
class ReplayAfterRetentionTest
{
    private static final long START = Instant.parse("2026-12-01T10:00:00Z").toEpochMilli();
    private static final long DAY1 = Instant.parse("2026-11-28T00:00:00Z").toEpochMilli();
    private static final long DAY_MS = 86_400_000L;

    @TempDir
    Path dir;

    private final AtomicLong now = new AtomicLong(START + 1_000);
    private JournalClock before;

    @BeforeEach
    void testClock()
    {
        before = JournalClock.useForTests(JournalClock.of(now::get));
    }

    @AfterEach
    void restoreClock()
    {
        JournalClock.useForTests(before);
    }

    /**
     * Five parts, one a minute: parts 0 to 2 hold events of 2026-11-28 (keys k0..k9 first seen there), parts 3 and 4
     * of 2026-11-29 and 2026-11-30 that reuse those keys, but for part 3's first event, at 2026-11-28T23:30.
     */
    private Path journal(final String name, final int seed) throws IOException
    {
        final Path journal = dir.resolve(name);
        int id = 0;
        for (int part = 0; part < 5; part++)
        {
            final StringBuilder text = new StringBuilder("event_id,event_time,key,value\n");
            for (int i = 0; i < 40; i++, id++)
            {
                final long time = part < 3 ? DAY1 + part * 3_600_000L * 6 + i * 60_000L
                    : part == 3 && i == 0 ? DAY1 + DAY_MS - 1_800_000L : DAY1 + (part - 2) * DAY_MS + i * 90_000L;
                text.append(id).append(',').append(time).append(",k").append((id * seed) % 10).append(',').append(id % 13).append('\n');
            }
            final Path input = Files.writeString(dir.resolve(name + "-part" + part + ".csv"), text);
            final Cli ingest = Cli.run("ingest", "--input", input.toString(), "--journal", journal.toString(), "--roll-cycle", "minutely");
            assertEquals(0, ingest.exit(), ingest.err());
            now.addAndGet(60_000);
        }
        return journal;
    }

    private Cli replay(final Path journal, final String... more)
    {
        final List<String> args = new java.util.ArrayList<>(List.of("replay", "--journal", journal.toString(), "--window", "tumbling:1h"));
        args.addAll(List.of(more));
        return Cli.run(args.toArray(String[]::new));
    }

    private void retain(final Path journal, final Path archive)
    {
        now.set(START + 5 * 60_000L + 30_000); // cycles 0..2 ended more than 2 minutes ago
        final Cli retain = Cli.run("retain", "--journal", journal.toString(), "--keep", "2m", "--archive", archive.toString());
        assertEquals(0, retain.exit(), retain.out() + retain.err());
    }

    @Test
    void aRemovedRangeIsRefusedAndTheArchiveReplaysToTheSameBytes() throws IOException
    {
        final Path journal = journal("journal", 7);
        final List<JournalCycles.Cycle> cycles = JournalCycles.events(JournalDirectory.open(journal)).cycles();
        assertEquals(5, cycles.size());
        final long removedOffset = cycles.get(1).firstOffset() + 3;
        final long oldest = cycles.get(3).firstOffset();
        final Path whole = dir.resolve("whole.csv");
        final Path fromRemoved = dir.resolve("from-removed.csv");
        assertEquals(0, replay(journal, "--results", whole.toString()).exit());
        assertEquals(0, replay(journal, "--results", fromRemoved.toString(), "--from", Long.toString(removedOffset)).exit());
        final Path all = dir.resolve("all");
        assertEquals(0, replay(journal, "--output-dir", all.toString()).exit());
        final byte[] day2 = Files.readAllBytes(all.resolve("date=2026-11-29/results.csv"));
        final byte[] day3 = Files.readAllBytes(all.resolve("date=2026-11-30/results.csv"));

        final Path archive = dir.resolve("archive");
        retain(journal, archive);
        assertEquals(2, JournalCycles.events(JournalDirectory.open(journal)).cycles().size());

        final Cli refused = replay(journal, "--results", dir.resolve("r.csv").toString(), "--from", Long.toString(removedOffset));
        assertEquals(WeirCommand.USAGE, refused.exit(), refused.out());
        assertEquals(1, refused.errorLines(), refused.err());
        assertTrue(refused.err().contains("weir: offset " + removedOffset + " of journal " + journal + " was removed by retention: "
            + "the oldest offset still available is " + oldest + ", whose events start at event time 2026-11-28T23:30:00Z (UTC day 2026-11-28); "
            + "the events before it were removed (120 events, up to event time 2026-11-28T12:39:00Z); the archive " + archive
            + " holds them: add --archive " + archive + " to replay them"), refused.err());
        assertFalse(Files.exists(dir.resolve("r.csv")));

        final Cli days = replay(journal, "--output-dir", dir.resolve("parts").toString(), "--days", "2026-11-28..2026-11-30");
        assertEquals(WeirCommand.USAGE, days.exit(), days.out());
        assertTrue(days.err().contains("the oldest complete day still available is 2026-11-29 (the oldest offset available is " + oldest + ")"),
            days.err());
        assertTrue(days.err().contains("add --archive " + archive), days.err());
        assertEquals(0, replay(journal, "--output-dir", dir.resolve("parts").toString(), "--days", "2026-11-29").exit());

        final Cli rest = replay(journal, "--results", dir.resolve("rest.csv").toString());
        assertEquals(0, rest.exit(), rest.err());
        assertTrue(rest.err().contains("weir: note: events before offset " + oldest + " were removed by retention (120 events, "
            + "up to event time 2026-11-28T12:39:00Z); replaying from " + oldest + "; the archive " + archive), rest.err());
        assertTrue(rest.out().lines().anyMatch(l -> l.matches("events +80")), rest.out());

        Files.writeString(all.resolve("date=2026-11-28/results.csv"), "left as it was\n");
        Files.delete(all.resolve("date=2026-11-29/results.csv"));
        final Cli partitions = replay(journal, "--output-dir", all.toString());
        assertEquals(0, partitions.exit(), partitions.err());
        assertTrue(partitions.err().contains("weir: note: partitions before 2026-11-29 are left as they are (rows not written: 1): "
            + "retention removed some of their events; later days are rewritten"), partitions.err());
        assertEquals("left as it was\n", Files.readString(all.resolve("date=2026-11-28/results.csv")));
        assertArrayEquals(day2, Files.readAllBytes(all.resolve("date=2026-11-29/results.csv")), "later days rewritten as before");
        assertArrayEquals(day3, Files.readAllBytes(all.resolve("date=2026-11-30/results.csv")));

        final List<byte[]> archivedBefore = archived(archive);
        final Path fromArchive = dir.resolve("from-archive.csv");
        final Cli archived = replay(journal, "--results", fromArchive.toString(), "--archive", archive.toString());
        assertEquals(0, archived.exit(), archived.err());
        assertTrue(archived.out().lines().anyMatch(l -> l.matches("events +200")), archived.out());
        assertArrayEquals(Files.readAllBytes(whole), Files.readAllBytes(fromArchive), "the same rows as before retention");
        final Path fromArchiveRemoved = dir.resolve("from-archive-removed.csv");
        assertEquals(0, replay(journal, "--results", fromArchiveRemoved.toString(), "--archive", archive.toString(),
            "--from", Long.toString(removedOffset)).exit());
        assertArrayEquals(Files.readAllBytes(fromRemoved), Files.readAllBytes(fromArchiveRemoved));
        final List<byte[]> archivedAfter = archived(archive);
        assertEquals(3, archivedAfter.size());
        for (int i = 0; i < 3; i++)
        {
            assertArrayEquals(archivedBefore.get(i), archivedAfter.get(i), "the archive is left as it was, byte for byte");
        }
        assertEquals(2, JournalCycles.events(JournalDirectory.open(journal)).cycles().size(), "and the journal");
    }

    private static List<byte[]> archived(final Path archive) throws IOException
    {
        try (Stream<Path> files = Files.list(archive.resolve("events")))
        {
            final List<byte[]> contents = new java.util.ArrayList<>();
            for (final Path file : files.filter(f -> f.toString().endsWith(".cq4")).sorted().toList())
            {
                contents.add(Files.readAllBytes(file));
            }
            return contents;
        }
    }

    @Test
    void anArchiveMissingACycleOrOfAnotherJournalIsRefused() throws IOException
    {
        final Path journal = journal("journal", 7);
        final Path archive = dir.resolve("archive");
        retain(journal, archive);
        now.set(START + 1_000);
        final Path other = journal("other", 3);
        final Path otherArchive = dir.resolve("other-archive");
        retain(other, otherArchive);

        final Cli foreign = replay(journal, "--results", dir.resolve("r.csv").toString(), "--archive", otherArchive.toString());
        assertEquals(WeirCommand.USAGE, foreign.exit(), foreign.out());
        assertTrue(foreign.err().contains("the archive " + otherArchive + " does not match it: its documents define other strings"),
            foreign.err());

        final Path events = archive.resolve("events");
        final List<Path> files;
        try (Stream<Path> list = Files.list(events))
        {
            files = list.filter(f -> f.toString().endsWith(".cq4")).sorted().toList();
        }
        Files.move(files.get(1), dir.resolve("aside.cq4"));
        final Cli gap = replay(journal, "--results", dir.resolve("r.csv").toString(), "--archive", archive.toString());
        assertEquals(WeirCommand.USAGE, gap.exit(), gap.out());
        assertTrue(gap.err().contains("does not match it: it holds 82 documents before offset"), gap.err());
        assertFalse(Files.exists(dir.resolve("r.csv")));
    }
}
