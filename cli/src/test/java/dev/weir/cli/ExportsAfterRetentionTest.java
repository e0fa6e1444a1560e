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

import dev.weir.journal.IngestLog;
import dev.weir.journal.JournalClock;
import dev.weir.journal.JournalCycles;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.retention.OutputHistory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A minutely journal ingested five times a test-clock minute apart (events of 2026-11-28, then of 11-29 and 11-30),
 * run once, whose three oldest events cycles {@code weir retain} archived and whose output journal's history says the
 * results of 2026-11-28 were removed: {@code weir run --results} and
 * {@code --late-output} are refused before anything is ingested or processed; {@code --output-dir} leaves the
 * partitions up to the day of the greatest removed window start as they are and rewrites the later ones as before;
 * {@code weir inspect} shows what was removed and the floor.
 */
class ExportsAfterRetentionTest
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

    private Path part(final int part) throws IOException
    {
        final StringBuilder text = new StringBuilder("event_id,event_time,key,value\n");
        for (int i = 0; i < 40; i++)
        {
            final int id = part * 40 + i;
            final long time = part < 3 ? DAY1 + part * 3_600_000L * 6 + i * 60_000L : DAY1 + (part - 2) * DAY_MS + i * 90_000L;
            text.append(id).append(',').append(time).append(",k").append((id * 7) % 10).append(',').append(id % 13).append('\n');
        }
        return Files.writeString(dir.resolve("part" + part + ".csv"), text);
    }

    private Cli run(final Path journal, final String... more)
    {
        final List<String> args = new java.util.ArrayList<>(List.of("run", "--journal", journal.toString(), "--window", "tumbling:1h"));
        args.addAll(List.of(more));
        return Cli.run(args.toArray(String[]::new));
    }

    @Test
    void filesAreRefusedPartitionsOfRemovedDaysKeptAndInspectTellsWhatWasRemoved() throws IOException
    {
        final Path journal = dir.resolve("journal");
        final Path out = dir.resolve("out");
        for (int part = 0; part < 5; part++)
        {
            final Cli ingest = Cli.run("ingest", "--input", part(part).toString(), "--journal", journal.toString(), "--roll-cycle", "minutely");
            assertEquals(0, ingest.exit(), ingest.err());
            now.addAndGet(60_000);
        }
        final Cli first = run(journal, "--output-dir", out.toString());
        assertEquals(0, first.exit(), first.err());
        final JournalDirectory directory = JournalDirectory.open(journal);
        final Path day1 = out.resolve("date=2026-11-28/results.csv");
        final Path day2 = out.resolve("date=2026-11-29/results.csv");
        final Path day3 = out.resolve("date=2026-11-30/results.csv");
        final byte[] day2Before = Files.readAllBytes(day2);
        final byte[] day3Before = Files.readAllBytes(day3);
        assertTrue(Files.readAllLines(day1).size() > 1 && Files.readAllLines(day2).size() > 1, "rows on both days");

        final Path archive = dir.resolve("archive");
        now.set(START + 5 * 60_000L + 30_000);
        final Cli retain = Cli.run("retain", "--journal", journal.toString(), "--keep", "2m", "--archive", archive.toString());
        assertEquals(0, retain.exit(), retain.out() + retain.err());
        // the run wrote its outputs into one cycle, the newest, which retention keeps: record the removal of the
        // outputs of 2026-11-28 as a retention step that removed an older output cycle would
        final JournalDirectory pipeline = directory.pipeline(JournalDirectory.DEFAULT_PIPELINE);
        new OutputHistory(directory.id(), JournalCycles.results(pipeline).oldestOffset(), 32, 30, 4_096,
            Instant.parse("2026-11-28T12:00:00Z").toEpochMilli(), archive, Instant.ofEpochMilli(now.get())).write(pipeline);

        final long events = IngestLog.counts(directory).events();
        final Cli results = run(journal, "--input", part(5).toString(), "--results", dir.resolve("r.csv").toString());
        assertEquals(WeirCommand.USAGE, results.exit(), results.out());
        assertEquals(1, results.errorLines(), results.err());
        assertTrue(results.err().contains("output journal (archive " + archive + "): a results file would miss them; use --output-dir "
            + "(whole days after 2026-11-28 are rewritten), --jdbc-url, or 'weir replay'"), results.err());
        assertTrue(results.err().contains("weir: retention removed the oldest 30 results and 2 late events of pipeline default's "),
            results.err());
        assertEquals(events, IngestLog.counts(directory).events(), "nothing ingested");
        assertFalse(Files.exists(dir.resolve("r.csv")));
        final Cli late = run(journal, "--output-dir", out.toString(), "--late-output", dir.resolve("late.csv").toString());
        assertEquals(WeirCommand.USAGE, late.exit(), late.out());
        assertTrue(late.err().contains("a --late-output file would miss them; use --output-dir (whole days after 2026-11-28 are "
            + "rewritten) without --late-output, --jdbc-url, or 'weir replay'"), late.err());

        Files.writeString(day1, "left as it was\n");
        Files.delete(day2);
        final Cli partitions = run(journal, "--output-dir", out.toString());
        assertEquals(0, partitions.exit(), partitions.err());
        assertTrue(partitions.err().contains("results of pipeline default's output journal: partitions up to 2026-11-28 are left as they "
            + "are ("), partitions.err());
        assertEquals("left as it was\n", Files.readString(day1));
        assertArrayEquals(day2Before, Files.readAllBytes(day2), "a later day rewritten as before");
        assertArrayEquals(day3Before, Files.readAllBytes(day3));

        final Cli inspect = Cli.run("inspect", journal.toString());
        assertEquals(0, inspect.exit(), inspect.err());
        final List<JournalCycles.Cycle> kept = JournalCycles.events(directory).cycles();
        assertTrue(inspect.out().contains("\nretention    oldest offset " + kept.get(0).firstOffset() + "; 120 events removed (123 documents, "),
            inspect.out());
        assertTrue(inspect.out().contains(", up to event time 2026-11-28T12:39:00Z; archive " + archive + "\n"), inspect.out());
        assertTrue(inspect.out().contains("\nhistory      results of default: oldest output position "
            + JournalCycles.results(pipeline).oldestOffset() + "; 30 results and 2 late events removed (4,096 bytes), window starts up to "
            + "2026-11-28T12:00:00Z; archive " + archive + "\n"), inspect.out());
        assertTrue(inspect.out().contains("\nfloor        events from "), inspect.out());
        assertTrue(inspect.out().contains(", held by pipeline default (checkpoint "), inspect.out());
        try (Stream<String> lines = inspect.out().lines())
        {
            assertEquals(List.of("retention", "history", "floor"), lines.map(l -> l.split(" ")[0])
                .filter(w -> w.equals("retention") || w.equals("history") || w.equals("floor")).toList());
        }

        final Path fresh = dir.resolve("fresh");
        assertEquals(0, Cli.run("ingest", "--input", part(0).toString(), "--journal", fresh.toString()).exit());
        final Cli nothing = Cli.run("inspect", fresh.toString());
        assertTrue(nothing.out().contains("\nretention    nothing removed\nfloor        events from nothing held\n"), nothing.out());
    }
}
