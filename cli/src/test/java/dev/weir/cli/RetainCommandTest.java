package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import dev.weir.journal.HistoryBase;
import dev.weir.journal.IngestLog;
import dev.weir.journal.JournalClock;
import dev.weir.journal.JournalCycles;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.RetentionLock;
import dev.weir.journal.retention.HeldRemovedCycles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir retain}: its flags refused with exit 2, a second step on a journal refused while one runs, a dry run
 * that removes nothing, and a step over a minutely journal (a test clock a minute between ingests) that removes
 * the old events cycles before the pipeline's floor, keeps the newest, writes the history base first, and leaves a
 * journal that inspects, resumes and ingests as before.
 */
class RetainCommandTest
{
    private static final long START = 1_764_000_000_000L; // a whole minute

    @TempDir
    Path dir;

    private final AtomicLong now = new AtomicLong(START + 1_000);

    @AfterEach
    void systemClock()
    {
        JournalClock.useForTests(null);
    }

    private Path csv(final String name, final int lines) throws IOException
    {
        final StringBuilder text = new StringBuilder("event_id,event_time,key,value\n");
        for (int i = 0; i < lines; i++)
        {
            text.append(i).append(',').append(1_000L * i).append(",k").append(i % 7).append(',').append(i).append('\n');
        }
        return Files.writeString(dir.resolve(name), text);
    }

    /** Four ingests of a growing file, a minute apart on the test clock: four minutely cycles of 10 lines each. */
    private Path journalOverFourMinutes() throws IOException
    {
        JournalClock.useForTests(JournalClock.of(now::get));
        final Path journal = dir.resolve("j");
        for (int minute = 1; minute <= 4; minute++)
        {
            final Path input = csv("in.csv", 10 * minute);
            final Cli ingest = minute == 1
                ? Cli.run("ingest", "--input", input.toString(), "--journal", journal.toString(), "--roll-cycle", "minutely")
                : Cli.run("ingest", "--input", input.toString(), "--journal", journal.toString());
            assertEquals(0, ingest.exit(), ingest.err());
            now.addAndGet(60_000);
        }
        return journal;
    }

    @Test
    void badFlagsAreRefusedWithExitTwo() throws IOException
    {
        final Path journal = journalOverFourMinutes();
        final Cli noKeep = Cli.run("retain", "--journal", journal.toString());
        assertEquals(WeirCommand.USAGE, noKeep.exit());
        assertTrue(noKeep.err().contains("--keep"), noKeep.err());
        final Cli badKeep = Cli.run("retain", "--journal", journal.toString(), "--keep", "soon");
        assertEquals(WeirCommand.USAGE, badKeep.exit());
        assertTrue(badKeep.err().contains("'soon' is not a duration"), badKeep.err());
        final Cli inside = Cli.run("retain", "--journal", journal.toString(), "--keep", "1m", "--archive", journal.resolve("old").toString());
        assertEquals(WeirCommand.USAGE, inside.exit());
        assertTrue(inside.err().contains("is inside the journal"), inside.err());
        final Path file = Files.writeString(dir.resolve("a-file"), "x");
        final Cli underFile = Cli.run("retain", "--journal", journal.toString(), "--keep", "1m", "--archive", file.resolve("sub").toString());
        assertEquals(WeirCommand.USAGE, underFile.exit());
        assertTrue(underFile.err().contains("cannot be a directory: " + file + " is a file"), underFile.err());
        final Cli notJournal = Cli.run("retain", "--journal", dir.resolve("nothing").toString(), "--keep", "1m");
        assertEquals(WeirCommand.USAGE, notJournal.exit());
        assertEquals(4, JournalCycles.events(JournalDirectory.open(journal)).cycles().size(), "nothing was removed");
    }

    /**
     * Issue 28, item 7: a cycle file a step removed while a process still holds it open keeps its disk space until
     * the process lets go; {@code weir inspect}'s disk section counts it (from {@code /proc}) until then.
     */
    @Test
    void inspectCountsARemovedCycleStillOpenUntilItIsClosed() throws Exception
    {
        final Path journal = journalOverFourMinutes();
        final JournalDirectory directory = JournalDirectory.open(journal);
        final JournalCycles.Cycle first = JournalCycles.events(directory).cycles().get(0);
        final Path firstFile = directory.eventsQueue().resolve(first.fileName()).toRealPath();
        final Cli run = Cli.run("run", "--journal", journal.toString(), "--window", "tumbling:5s", "--results", dir.resolve("r.csv").toString());
        assertEquals(0, run.exit(), run.err());
        try (JournalReader reader = JournalReader.open(directory))
        {
            assertEquals(3, reader.poll((offset, eventId, eventTime, keyId, value) -> { }, 3), "a reader that stopped in the first cycle");
            final Cli retain = Cli.run("retain", "--journal", journal.toString(), "--keep", "0");
            assertEquals(0, retain.exit(), retain.err());
            assertFalse(Files.exists(firstFile), retain.out());
            awaitHeld(journal, Set.of(firstFile.toString())); // the step's own reads of the removed cycles let go
            final Cli inspect = Cli.run("inspect", journal.toString());
            assertEquals(0, inspect.exit(), inspect.err());
            assertTrue(inspect.out().contains(String.format("disk         removed cycle files still open: 1 (%,d bytes), held by pid %d: the space "
                + "is freed when they are closed%n", first.bytes(), ProcessHandle.current().pid())), inspect.out());
        }
        awaitHeld(journal, Set.of());
        final Cli inspect = Cli.run("inspect", journal.toString());
        assertEquals(0, inspect.exit(), inspect.err());
        assertFalse(inspect.out().contains("removed cycle files still open"), inspect.out());
    }

    /** Wait until the removed cycle files this process maps or holds open are exactly {@code paths}. */
    private static void awaitHeld(final Path journal, final Set<String> paths) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Set<String> held = heldPaths(journal);
        while (!held.equals(paths) && System.nanoTime() < deadline)
        {
            Thread.sleep(20); // Chronicle lets go of a file on a background thread
            held = heldPaths(journal);
        }
        assertEquals(paths, held, "removed cycle files this process maps or holds open");
    }

    private static Set<String> heldPaths(final Path journal)
    {
        return HeldRemovedCycles.inThisProcess(journal).stream().map(h -> h.substring(h.indexOf(' ') + 1)).collect(Collectors.toSet());
    }

    @Test
    void aSecondStepIsRefusedWhileOneRuns() throws IOException
    {
        final Path journal = journalOverFourMinutes();
        try (RetentionLock held = RetentionLock.acquire(JournalDirectory.open(journal)))
        {
            final Cli second = Cli.run("retain", "--journal", journal.toString(), "--keep", "0");
            assertEquals(WeirCommand.USAGE, second.exit(), second.out());
            assertTrue(second.err().contains("another retention step is running on it (process " + ProcessHandle.current().pid()), second.err());
        }
        assertEquals(4, JournalCycles.events(JournalDirectory.open(journal)).cycles().size(), "nothing was removed");
    }

    @Test
    void anIngestAfterAStepKeepsTheRejectedRowsOfRemovedCycles() throws IOException
    {
        JournalClock.useForTests(JournalClock.of(now::get));
        final Path journal = dir.resolve("rj");
        final Path input = dir.resolve("bad.csv");
        final Path rejected = dir.resolve("bad.csv.rejected.csv");
        final String first = "event_id,event_time,key,value\n1,1000,k,1\nnot a line\n3,3000,\"a\nkey, quoted\"\n4,x,k,4\n5,5000,k,5\n";
        Files.writeString(input, first);
        assertEquals(0, Cli.run("ingest", "--input", input.toString(), "--journal", journal.toString(), "--roll-cycle", "minutely").exit());
        assertEquals(5, Files.readString(rejected).lines().count(), "a header and 4 rejected rows");
        now.addAndGet(60_000);
        Files.writeString(input, first + "6,6000,k,6\nbad again\n");
        assertEquals(0, Cli.run("ingest", "--input", input.toString(), "--journal", journal.toString()).exit());
        now.addAndGet(60_000);
        Files.writeString(input, first + "6,6000,k,6\nbad again\n7,7000,k,7\n");
        assertEquals(0, Cli.run("ingest", "--input", input.toString(), "--journal", journal.toString()).exit());
        final String all = Files.readString(rejected);
        now.addAndGet(120_000);
        final Cli run = Cli.run("run", "--journal", journal.toString(), "--window", "tumbling:5s", "--results", dir.resolve("r.csv").toString());
        assertEquals(0, run.exit(), run.err());
        final Cli retain = Cli.run("retain", "--journal", journal.toString(), "--keep", "90s");
        assertEquals(0, retain.exit(), retain.err());
        assertTrue(retain.out().contains("removed events"), retain.out());

        Files.writeString(input, first + "6,6000,k,6\nbad again\n7,7000,k,7\nlast bad\n");
        final Cli more = Cli.run("ingest", "--input", input.toString(), "--journal", journal.toString());
        assertEquals(0, more.exit(), more.err());
        final String after = Files.readString(rejected);
        assertTrue(after.startsWith(all), "the rows of the removed cycles' rejected lines stay:\n" + all + "---\n" + after);
        assertTrue(after.substring(all.length()).matches("11,[^\n]*,last bad\n"), "then the new one: " + after.substring(all.length()));
        assertEquals(7, after.lines().count(), "a header and 6 rejected rows, none twice");
    }

    @Test
    void aStepRemovesTheOldCyclesBeforeTheFloorAndTheJournalReadsAsBefore() throws IOException
    {
        final Path journal = journalOverFourMinutes();
        final Path results = dir.resolve("r.csv");
        final Cli run = Cli.run("run", "--journal", journal.toString(), "--window", "tumbling:5s", "--results", results.toString());
        assertEquals(0, run.exit(), run.err());
        final String before = Files.readString(results);
        final List<JournalCycles.Cycle> cycles = JournalCycles.events(JournalDirectory.open(journal)).cycles();
        assertEquals(4, cycles.size());

        // now is a second after the fourth cycle ended (cycles ended 3 min, 2 min, 1 min and 1 s ago): --keep 90s removes two
        final Cli dry = Cli.run("retain", "--journal", journal.toString(), "--keep", "90s", "--dry-run");
        assertEquals(0, dry.exit(), dry.err());
        assertTrue(dry.out().contains("would remove events " + cycles.get(0).fileName()), dry.out());
        assertEquals(4, JournalCycles.events(JournalDirectory.open(journal)).cycles().size(), "a dry run removes nothing");
        assertTrue(HistoryBase.read(JournalDirectory.open(journal)).isEmpty(), "a dry run writes no base");

        final Cli retain = Cli.run("retain", "--journal", journal.toString(), "--keep", "90s");
        assertEquals(0, retain.exit(), retain.err());
        assertTrue(retain.out().contains("floor: events from " + IngestLog.counts(JournalDirectory.open(journal)).lastEventOffset()
            + ", held by pipeline default"), retain.out());
        assertTrue(retain.out().contains("removed events " + cycles.get(0).fileName()), retain.out());
        assertTrue(retain.out().contains("removed events " + cycles.get(1).fileName()), retain.out());
        assertFalse(retain.out().contains(cycles.get(2).fileName()), "a cycle that ended a minute ago stays: " + retain.out());
        final JournalDirectory directory = JournalDirectory.open(journal);
        final List<JournalCycles.Cycle> left = JournalCycles.events(directory).cycles();
        assertEquals(List.of(cycles.get(2).fileName(), cycles.get(3).fileName()), left.stream().map(JournalCycles.Cycle::fileName).toList());
        assertEquals(cycles.get(2).firstOffset(), HistoryBase.read(directory).orElseThrow().firstOffset(), "the base starts where the journal does");

        final Cli inspect = Cli.run("inspect", journal.toString());
        assertEquals(0, inspect.exit(), inspect.err());
        assertTrue(inspect.out().contains("40 events, 0 rejected lines, 4 ingests, 7 keys"), inspect.out());
        final Cli rerun = Cli.run("run", "--journal", journal.toString(), "--window", "tumbling:5s", "--results", results.toString());
        assertEquals(0, rerun.exit(), rerun.err());
        assertEquals(before, Files.readString(results), "the resumed run exports the same results");
        final Cli more = Cli.run("ingest", "--input", csv("in.csv", 45).toString(), "--journal", journal.toString());
        assertEquals(0, more.exit(), more.err());
        assertTrue(more.out().contains("5 events appended"), "an ingest resumes from the base's progress: " + more.out());

        now.addAndGet(600_000);
        final Cli held = Cli.run("retain", "--journal", journal.toString(), "--keep", "0");
        assertEquals(0, held.exit(), held.err());
        assertTrue(held.out().contains("held back: 1 events cycles ended before"), "the checkpoint holds its cycle: " + held.out());
        assertTrue(held.out().contains("needed by pipeline default (checkpoint"), held.out());
        assertEquals(2, JournalCycles.events(JournalDirectory.open(journal)).cycles().size(), "the pipeline's cycle and the new one");
        final Cli caughtUp = Cli.run("run", "--journal", journal.toString(), "--window", "tumbling:5s", "--results", results.toString(),
            ResumeAfterEnd.FLAG); // the bounded run ended its input: the new events are late for it, as asked

        assertEquals(0, caughtUp.exit(), caughtUp.err());
        final Cli again = Cli.run("retain", "--journal", journal.toString(), "--keep", "0");
        assertEquals(0, again.exit(), again.err());
        assertEquals(1, JournalCycles.events(JournalDirectory.open(journal)).cycles().size(), "the newest cycle is never removed: " + again.out());
    }
}
