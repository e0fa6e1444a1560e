package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.weir.csv.CsvLineParser;
import dev.weir.engine.retention.RetentionFloor;
import dev.weir.journal.HistoryBase;
import dev.weir.journal.JournalClock;
import dev.weir.journal.JournalCycles;
import dev.weir.journal.JournalDirectory;
import dev.weir.testsupport.ChildJvm;
import dev.weir.testsupport.KillHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir retain} killed with SIGKILL, and a floor held back by a stalled pipeline.
 * <p>
 * The journal is minutely; its events are ingested in this JVM under a test clock, one cycle per minute, and
 * its pipeline runs here too, always in a minute after every events cycle (so its output journal has one
 * cycle, the newest, which retention keeps: only events cycles go in these tests). Each {@code weir retain} runs
 * in a child JVM on the scaled test clock ({@code -Dweir.clock.origin/scale}, 60 × the wall clock from the test's
 * start), for which every events cycle ended hours ago: the floor alone decides. In rounds, a step is killed
 * at a seeded moment (anywhere in its life, as soon as it replaced the history base, or just after its first
 * cycle left the journal); what it left must be a prefix of the cycles it chose, all wholly before the floor,
 * with the history base never behind the oldest remaining cycle; a second step finishes the job; then more
 * events are ingested and the pipeline resumes. Its results file must equal, row for row, that of a journal
 * given the same ingests and runs and no retention.
 */
@Tag("slow")
class RetentionKillTest
{
    private static final long MINUTE = 60_000L;
    private static final int PER_CYCLE = 3_000;
    private static final int ROUNDS = 6;

    @TempDir
    Path dir;

    private final long wallStart = System.currentTimeMillis();
    /** Events cycle c is the minute START + c; the pipeline runs in minute START + 150. */
    private final long start = wallStart / MINUTE * MINUTE - 3 * 60 * MINUTE;
    private final AtomicLong now = new AtomicLong(start);
    private JournalClock before;

    /** Where a killed step was, judged from what it left. */
    private enum Phase
    {
        /** Nothing changed yet: starting, reading the floor, listing. */
        BEFORE_BASE,
        /** The history base was moved on, no cycle removed yet. */
        BASE_WRITTEN,
        /** Some of the chosen cycles removed. */
        REMOVING,
        /** Every chosen cycle removed: refreshing, reporting, exiting. */
        AFTER
    }

    @AfterEach
    void restoreClock()
    {
        if (before != null)
        {
            JournalClock.useForTests(before);
        }
    }

    @Test
    void aRetentionStepKilledAtAnyMomentLeavesAPrefixBeforeTheFloorAndThePipelineResumesExactlyOnce() throws Exception
    {
        before = JournalClock.useForTests(JournalClock.of(now::get));
        final Path retained = dir.resolve("retained");
        final Path plain = dir.resolve("plain");
        final Path archive = dir.resolve("archive");
        int cycle = 0;
        cycle = ingest(List.of(retained, plain), cycle, 20);
        run(retained, "default");
        run(plain, "default");
        cycle = ingest(List.of(retained, plain), cycle, 20);

        final SplittableRandom random = new SplittableRandom(19);
        final Map<Phase, Integer> phases = new EnumMap<>(Phase.class);
        final JournalDirectory journal = JournalDirectory.open(retained);
        final List<String> everyCycle = new ArrayList<>(fileNames(JournalCycles.events(journal).cycles()));
        for (int round = 0; round < ROUNDS; round++)
        {
            final List<JournalCycles.Cycle> cycles = JournalCycles.events(journal).cycles();
            final long floor = RetentionFloor.of(journal).eventsFloor();
            int chosen = 0;
            while (chosen < cycles.size() - 1 && cycles.get(chosen).lastOffset() < floor)
            {
                chosen++;
            }
            assertTrue(chosen >= 8, "round " + round + " has cycles to remove: " + chosen);
            final long baseBefore = baseFirst(journal);
            final Object baseFile = fileKey(journal);

            final Path log = dir.resolve("retain-" + round + ".log");
            final Process child = retainChild(retained, archive, log);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            if (round % 3 == 0)
            {
                Thread.sleep(random.nextInt(1_500)); // anywhere: mostly start-up, the floor and the listing
            }
            else if (round % 3 == 1)
            {
                // as soon as the history base was replaced, before or just as the first cycle goes
                while (Objects.equals(baseFile, fileKey(journal)) && child.isAlive() && System.nanoTime() < deadline)
                {
                    LockSupport.parkNanos(100_000);
                }
            }
            else
            {
                final Path first = journal.eventsQueue().resolve(cycles.get(0).fileName());
                while (Files.exists(first) && child.isAlive() && System.nanoTime() < deadline)
                {
                    LockSupport.parkNanos(200_000);
                }
                Thread.sleep(random.nextInt(20)); // while it removes the others
            }
            child.destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));

            final List<JournalCycles.Cycle> left = JournalCycles.events(journal).cycles();
            final int removed = cycles.size() - left.size();
            assertEquals(cycles.subList(removed, cycles.size()), left, "round " + round + ": the kill left a prefix of the cycles removed");
            assertTrue(removed <= chosen, "round " + round + ": removed " + removed + " cycles, only " + chosen + " lie before the floor " + floor);
            final long base = baseFirst(journal);
            if (removed > 0)
            {
                assertTrue(base >= left.get(0).firstOffset(), "round " + round + ": the history base (" + base
                    + ") is behind the oldest cycle left (" + left.get(0).firstOffset() + ")");
            }
            assertTrue(base <= cycles.get(chosen).firstOffset(), "round " + round + ": the base never passes the first cycle kept");
            assertArchivedOrLive(journal, archive, everyCycle);
            phases.merge(removed == chosen ? Phase.AFTER : removed > 0 ? Phase.REMOVING
                : base != baseBefore ? Phase.BASE_WRITTEN : Phase.BEFORE_BASE, 1, Integer::sum);

            final Process again = retainChild(retained, archive, dir.resolve("retain-" + round + "-again.log"));
            assertTrue(again.waitFor(120, TimeUnit.SECONDS));
            final String printed = Files.readString(dir.resolve("retain-" + round + "-again.log"), StandardCharsets.UTF_8);
            assertEquals(0, again.exitValue(), printed);
            assertEquals(cycles.subList(chosen, cycles.size()), JournalCycles.events(journal).cycles(),
                "round " + round + ": the second step removed the rest of the cycles before the floor, nothing at or after it\n" + printed);
            assertEquals(cycles.get(chosen).firstOffset(), baseFirst(journal));
            assertArchivedOrLive(journal, archive, everyCycle);

            final int from = cycle;
            cycle = ingest(List.of(retained, plain), cycle, 8);
            everyCycle.addAll(fileNames(JournalCycles.events(journal).cycles().stream()
                .filter(c -> !everyCycle.contains(c.fileName())).toList()));
            assertEquals(cycle, everyCycle.size(), "one file per cycle from " + from);
            run(retained, "default");
            run(plain, "default");
        }
        System.out.println("retention steps killed, by phase: " + phases);

        KillHarness.assertSameLines("results after " + ROUNDS + " killed retention steps",
            Files.readAllLines(results(plain, "default")), Files.readAllLines(results(retained, "default")));
        assertTrue(JournalCycles.events(journal).cycles().size() < 20, "most cycles went: " + JournalCycles.events(journal).cycles().size());
    }

    @Test
    void aStalledPipelineHoldsTheFloorUntilItCatchesUp() throws IOException
    {
        before = JournalClock.useForTests(JournalClock.of(now::get));
        final Path path = dir.resolve("j");
        int cycle = ingest(List.of(path), 0, 3);
        run(path, "slow");
        cycle = ingest(List.of(path), cycle, 7);
        run(path, "default");
        final JournalDirectory journal = JournalDirectory.open(path);
        final List<JournalCycles.Cycle> cycles = JournalCycles.events(journal).cycles();
        assertEquals(10, cycles.size());

        now.set(start + 200 * MINUTE);
        final Cli held = Cli.run("retain", "--journal", path.toString(), "--keep", "1m");
        assertEquals(0, held.exit(), held.err());
        assertEquals(cycles.subList(2, 10), JournalCycles.events(journal).cycles(), "nothing at or after the slow pipeline's floor went\n" + held.out());
        assertTrue(held.out().contains("\nheld back: 7 events cycles ended before ") && held.out().contains(
            " from " + cycles.get(2).fileName() + " on, needed by pipeline slow (checkpoint "), held.out());
        assertTrue(held.out().contains("\nfloor: events from " + RetentionFloor.describe(RetentionFloor.of(journal).eventsFloor())
            + ", held by pipeline slow (checkpoint "), held.out());
        final Cli again = Cli.run("retain", "--journal", path.toString(), "--keep", "1m");
        assertTrue(again.out().contains("\nnothing removed;"), again.out());

        run(path, "slow");
        final Cli caughtUp = Cli.run("retain", "--journal", path.toString(), "--keep", "1m");
        assertEquals(0, caughtUp.exit(), caughtUp.err());
        assertEquals(cycles.subList(9, 10), JournalCycles.events(journal).cycles(), "caught up: every cycle before the last event read\n" + caughtUp.out());
        assertFalse(caughtUp.out().contains("held back:"), caughtUp.out());
        assertEquals(cycles.get(9).firstOffset(), baseFirst(journal));
    }

    /** Ingest {@code count} cycles from {@code cycle} on into each journal, each cycle in its own minute. */
    private int ingest(final List<Path> journals, final int cycle, final int count) throws IOException
    {
        for (int c = cycle; c < cycle + count; c++)
        {
            final Path csv = dir.resolve("part-" + c + ".csv");
            final SplittableRandom random = new SplittableRandom(c);
            final StringBuilder text = new StringBuilder(CsvLineParser.DEFAULT_HEADER).append('\n');
            for (long i = (long)c * PER_CYCLE; i < (long)(c + 1) * PER_CYCLE; i++)
            {
                // new keys keep appearing, so results name keys first seen in cycles long removed as well as new ones
                text.append(i).append(',').append(100_000L + 2 * i - random.nextInt(300)).append(",k").append(random.nextInt(50 + 20 * c))
                    .append(',').append(random.nextInt(20_000) - 10_000).append('\n');
            }
            Files.writeString(csv, text, StandardCharsets.UTF_8);
            now.set(start + c * MINUTE + 1_000);
            for (final Path journal : journals)
            {
                final Cli ingest = Cli.run("ingest", "--input", csv.toString(), "--journal", journal.toString(), "--roll-cycle", "minutely");
                assertEquals(0, ingest.exit(), ingest.err());
            }
        }
        return cycle + count;
    }

    /**
     * Run the pipeline over everything ingested, in the minute of the output journal's one cycle. A later run after more
     * ingest resumes after the end of the earlier bounded run on purpose (its events are late; what is checked here is
     * the floor and the offsets), hence --resume-after-end.
     */
    private void run(final Path journal, final String pipeline)
    {
        now.set(start + 150 * MINUTE + 1_000);
        final Cli run = Cli.run("run", "--journal", journal.toString(), "--pipeline", pipeline, "--window", "tumbling:1s",
            "--results", results(journal, pipeline).toString(), "--resume-after-end");
        assertEquals(0, run.exit(), run.err());
    }

    private static Path results(final Path journal, final String pipeline)
    {
        return journal.resolveSibling(journal.getFileName() + "-" + pipeline + ".csv");
    }

    private Process retainChild(final Path journal, final Path archive, final Path log) throws IOException
    {
        final List<String> command = ChildJvm.weir("256m", "retain", "--journal", journal.toString(), "--keep", "1m", "--archive", archive.toString());
        command.add(1, "-D" + JournalClock.ORIGIN_PROPERTY + "=" + wallStart);
        command.add(2, "-D" + JournalClock.SCALE_PROPERTY + "=60");
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /** @return the identity of the history base's file (it changes when the file is replaced), or null if there is none. */
    private static Object fileKey(final JournalDirectory journal)
    {
        try
        {
            return Files.readAttributes(journal.root().resolve(HistoryBase.FILE), BasicFileAttributes.class).fileKey();
        }
        catch (final IOException ex)
        {
            return null;
        }
    }

    private static long baseFirst(final JournalDirectory journal)
    {
        return HistoryBase.read(journal).map(HistoryBase.Summary::firstOffset).orElse(Long.MIN_VALUE);
    }

    /** Every cycle file ever written is in the journal or in the archive, and in exactly one. */
    private static void assertArchivedOrLive(final JournalDirectory journal, final Path archive, final List<String> everyCycle) throws IOException
    {
        final List<String> live = fileNames(JournalCycles.events(journal).cycles());
        final List<String> archived;
        if (Files.isDirectory(archive.resolve("events")))
        {
            try (Stream<Path> files = Files.list(archive.resolve("events")))
            {
                archived = files.map(file -> file.getFileName().toString()).filter(name -> name.endsWith(".cq4")).sorted().toList();
            }
        }
        else
        {
            archived = List.of();
        }
        final List<String> both = new ArrayList<>(archived);
        both.addAll(live);
        assertEquals(everyCycle, both.stream().sorted().collect(Collectors.toList()), "archived " + archived + ", live " + live
            + " at " + Instant.now());
    }

    private static List<String> fileNames(final List<JournalCycles.Cycle> cycles)
    {
        return cycles.stream().map(JournalCycles.Cycle::fileName).toList();
    }
}
