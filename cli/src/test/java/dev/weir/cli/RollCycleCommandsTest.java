package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.weir.journal.JournalClock;
import dev.weir.journal.JournalCycles;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRollCycle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --roll-cycle} on the commands that create a journal: recorded, shown by {@code weir inspect}, refused
 * when it differs from an existing journal's or is not a roll cycle (exit 2); and, under a test clock that moves a
 * minute between ingests, a minutely journal's cycle files listed by {@code weir inspect}'s disk section.
 */
class RollCycleCommandsTest
{
    private static final Pattern CYCLE_LINE =
        Pattern.compile("  (\\S+\\.cq4)  (\\S+)\\.\\.(\\S+)  offsets (\\d+)\\.\\.(\\d+)  ([\\d,]+) documents  ([\\d,]+) bytes");

    @TempDir
    Path dir;

    private JournalClock before;

    @AfterEach
    void restoreClock()
    {
        if (before != null)
        {
            JournalClock.useForTests(before);
        }
    }

    private Path csv(final String name, final int from, final int count) throws IOException
    {
        final StringBuilder text = new StringBuilder("event_id,event_time,key,value\n");
        for (int i = from; i < from + count; i++)
        {
            text.append(i).append(',').append(1_000L * i).append(",k").append(i % 7).append(',').append(i).append('\n');
        }
        return Files.writeString(dir.resolve(name), text);
    }

    @Test
    void ingestRecordsTheRollCycleInspectShowsItAndAnotherOneIsRefused() throws IOException
    {
        final Path journal = dir.resolve("journal");
        final Path input = csv("a.csv", 0, 10);
        final Cli ingest = Cli.run("ingest", "--input", input.toString(), "--journal", journal.toString(), "--roll-cycle", "hourly");
        assertEquals(0, ingest.exit(), ingest.err());
        assertSame(JournalRollCycle.HOURLY, JournalDirectory.open(journal).rollCycle());

        final Cli inspect = Cli.run("inspect", journal.toString());
        assertEquals(0, inspect.exit(), inspect.err());
        assertTrue(inspect.out().contains("\nroll cycle   hourly (one file per hour; at most 4,294,967,295 documents per file)\n"), inspect.out());
        assertTrue(inspect.out().contains("\ndisk         events: 1 cycle files, "), inspect.out());

        final Cli changed = Cli.run("ingest", "--input", input.toString(), "--journal", journal.toString(), "--roll-cycle", "daily");
        assertEquals(WeirCommand.USAGE, changed.exit(), changed.out());
        assertTrue(changed.err().contains("was created with roll cycle hourly, not daily; a journal's roll cycle cannot change"), changed.err());
        final Cli run = Cli.run("run", "--input", input.toString(), "--journal", journal.toString(), "--window", "tumbling:10s",
            "--results", dir.resolve("r.csv").toString(), "--roll-cycle", "minutely");
        assertEquals(WeirCommand.USAGE, run.exit(), run.out());
        assertTrue(run.err().contains("was created with roll cycle hourly, not minutely"), run.err());
        final Cli rerun = Cli.run("run", "--journal", journal.toString(), "--window", "tumbling:10s", "--results",
            dir.resolve("r.csv").toString(), "--roll-cycle", "daily");
        assertEquals(WeirCommand.USAGE, rerun.exit(), rerun.out());
        assertTrue(rerun.err().contains("was created with roll cycle hourly, not daily"), rerun.err());
        final Cli same = Cli.run("ingest", "--input", input.toString(), "--journal", journal.toString(), "--roll-cycle", "hourly");
        assertEquals(0, same.exit(), same.err());

        final Cli bad = Cli.run("ingest", "--input", input.toString(), "--journal", dir.resolve("other").toString(), "--roll-cycle", "weekly");
        assertEquals(WeirCommand.USAGE, bad.exit());
        assertTrue(bad.err().contains("Invalid value for option '--roll-cycle': roll cycle 'weekly' is not one of minutely, hourly, daily"),
            bad.err());
        assertTrue(!Files.exists(dir.resolve("other")), "nothing created");
    }

    @Test
    void runCreatesAJournalWithTheRollCycleAndADefaultJournalIsDaily() throws IOException
    {
        final Path input = csv("a.csv", 0, 10);
        final Path minutely = dir.resolve("minutely");
        final Cli run = Cli.run("run", "--input", input.toString(), "--journal", minutely.toString(), "--window", "tumbling:10s",
            "--results", dir.resolve("r.csv").toString(), "--roll-cycle", "minutely");
        assertEquals(0, run.exit(), run.err());
        assertSame(JournalRollCycle.MINUTELY, JournalDirectory.open(minutely).rollCycle());
        final Cli inspect = Cli.run("inspect", minutely.toString());
        assertTrue(inspect.out().contains("\ndisk         results of default: 1 cycle files, "), inspect.out());

        final Path daily = dir.resolve("daily");
        assertEquals(0, Cli.run("ingest", "--input", input.toString(), "--journal", daily.toString()).exit());
        assertSame(JournalRollCycle.DAILY, JournalDirectory.open(daily).rollCycle());
        assertTrue(Cli.run("inspect", daily.toString()).out().contains("\nroll cycle   daily (one file per day;"));
    }

    @Test
    void ingestsAMinuteApartGoToCycleFilesOfTheirOwnListedByInspect() throws IOException
    {
        final long start = Instant.parse("2026-12-01T10:00:00Z").toEpochMilli();
        final AtomicLong now = new AtomicLong(start + 1_000);
        before = JournalClock.useForTests(JournalClock.of(now::get));
        final Path journal = dir.resolve("journal");
        final int[] counts = {5, 7, 3};
        int from = 0;
        for (int i = 0; i < counts.length; i++)
        {
            final Path input = csv("part" + i + ".csv", from, counts[i]);
            from += counts[i];
            final Cli ingest = Cli.run("ingest", "--input", input.toString(), "--journal", journal.toString(), "--roll-cycle", "minutely");
            assertEquals(0, ingest.exit(), ingest.err());
            now.addAndGet(60_000);
        }

        final Cli inspect = Cli.run("inspect", journal.toString());
        assertEquals(0, inspect.exit(), inspect.err());
        final List<Matcher> lines = inspect.out().lines().map(CYCLE_LINE::matcher).filter(Matcher::matches).collect(Collectors.toList());
        assertEquals(3, lines.size(), inspect.out());
        final List<JournalCycles.Cycle> cycles = JournalCycles.events(JournalDirectory.open(journal)).cycles();
        for (int i = 0; i < 3; i++)
        {
            final Matcher line = lines.get(i);
            final JournalCycles.Cycle cycle = cycles.get(i);
            assertEquals(JournalRollCycle.MINUTELY.fileName(cycle.cycle()), line.group(1));
            assertEquals(Instant.ofEpochMilli(start + i * 60_000L).toString(), line.group(2));
            assertEquals(Instant.ofEpochMilli(start + (i + 1) * 60_000L).toString(), line.group(3));
            assertEquals(cycle.firstOffset(), Long.parseLong(line.group(4)));
            assertEquals(cycle.lastOffset(), Long.parseLong(line.group(5)));
            // each ingest appends its start record, then its lines in batched documents of up to 64 events
            assertEquals(1 + (counts[i] + 63) / 64, Long.parseLong(line.group(6).replace(",", "")), inspect.out());
        }
        assertTrue(inspect.out().contains("\ndisk         events: 3 cycle files, "), inspect.out());
        assertTrue(inspect.out().contains(", oldest offset " + cycles.get(0).firstOffset() + "\n"), inspect.out());
        assertTrue(inspect.out().contains("\nevents       15 events, 0 rejected lines, 3 ingests"), inspect.out());

        // the oldest file deleted by hand: inspect shows what is left
        Files.delete(JournalDirectory.open(journal).eventsQueue().resolve(cycles.get(0).fileName()));
        final List<JournalCycles.Cycle> left = JournalCycles.events(JournalDirectory.open(journal)).cycles();
        assertEquals(2, left.size());
        assertEquals(cycles.get(1), left.get(0));
    }
}
