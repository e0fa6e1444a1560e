package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.weir.csv.CsvLineParser;
import dev.weir.engine.metrics.CounterTypes;
import dev.weir.engine.metrics.MetricsFile;
import dev.weir.journal.HistoryBase;
import dev.weir.journal.JournalClock;
import dev.weir.journal.JournalCycles;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.retention.HeldRemovedCycles;
import dev.weir.testsupport.ChildJvm;
import dev.weir.testsupport.TestDatabase;
import dev.weir.testsupport.TestTables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retention under load, the first test: child JVMs on the scaled test clock (minutely cycles, ×{@value #CLOCK_SCALE}: a
 * cycle per three wall seconds). A slow producer ({@link SlowIngestChild}) ingests {@value #PARTS} parts about a second
 * apart, so over as many cycles; a following {@code weir run --follow --retention 2m --jdbc-url} delivers the
 * results into PostgreSQL, and is stopped (SIGTERM) and restarted halfway, once the first cycles are gone. Some
 * keys are seen only in the first three parts and the last three. Checked:
 * <ul>
 *   <li>disk stays flat: sampled every 200 ms while a follower runs (after its first step), the journal never
 *       holds more than keep + 4 = 6 events cycle files, nor 6 results cycle files (keep, the cycle being written,
 *       and up to three cycles a follower slowed by a loaded machine has not yet checkpointed past), while the run
 *       makes about twice as many;</li>
 *   <li>the rows delivered equal, row for row, those of a bounded run of the same parts on a second journal
 *       without retention (the last part ends with a far later event, so the follower fires every window too;
 *       that event's own row is left out);</li>
 *   <li>the keys first seen in removed cycles still resolve: the restarted follower (which opened the journal
 *       after their cycles were removed) delivers them, by name, in the last parts' windows;</li>
 *   <li>{@code weir stat --once} shows the retention's counters moving;</li>
 *   <li>once the restarted follower caught up, no process holds a removed cycle file open (its space is free).</li>
 * </ul>
 * Needs the test PostgreSQL server (skipped without it, unless {@code WEIR_REQUIRE_POSTGRES=1}).
 */
@Tag("slow")
class RetentionUnderLoadTest
{
    private static final int PARTS = 24;
    private static final int PER_PART = 400;
    private static final long T0 = Instant.parse("2026-11-01T00:00:00Z").toEpochMilli();
    private static final long PART_SPAN_MS = 40_000;
    private static final int KEEP_CYCLES = 2;
    private static final int CLOCK_SCALE = 20;
    private static final int BOUND = KEEP_CYCLES + 4;
    private static final String SENTINEL = "zz-end";
    private static final String ROW = "key, window_start, window_end, count, sum, min, max, version";

    @TempDir
    Path dir;

    @RegisterExtension
    final TestTables tables = new TestTables("retention_load");

    private Connection db;
    private String table;

    @BeforeEach
    void tables()
    {
        db = tables.db();
        table = tables.name();
    }

    @Test
    void aFollowingRunWithRetentionKeepsTheDiskFlatAndDeliversWhatAnUnretainedRunDelivers() throws Exception
    {
        final List<Path> parts = writeParts();
        final List<String> reference = referenceRows(parts);
        assertTrue(reference.size() > 1_000, "windows: " + reference.size());
        final Path journal = dir.resolve("journal");
        final long origin = System.currentTimeMillis();
        final List<String> producerCommand = clocked(ChildJvm.command("256m", SlowIngestChild.class, args(journal, parts)), origin);
        final Path producerLog = dir.resolve("producer.log");
        final Process producer = new ProcessBuilder(producerCommand).redirectErrorStream(true).redirectOutput(producerLog.toFile()).start();
        Process follower = null;
        try
        {
            awaitJournal(journal, producer, producerLog);
            final String firstCycleFile = cycleFiles(JournalDirectory.open(journal).eventsQueue()).get(0);
            follower = startFollower(journal, origin, dir.resolve("follower-1.log"));
            final int[] max = new int[2];
            int samples = 0;
            boolean restarted = false;
            String stat = null;
            while (producer.isAlive())
            {
                samples += sample(journal, max);
                if (!restarted && ingested(producerLog) >= PARTS / 2)
                {
                    stop(follower, dir.resolve("follower-1.log"));
                    assertFalse(Files.exists(JournalDirectory.open(journal).eventsQueue().resolve(firstCycleFile)),
                        "the first parts' cycle was removed before the restart: " + firstCycleFile);
                    follower = startFollower(journal, origin, dir.resolve("follower-2.log"));
                    restarted = true;
                }
                if (restarted && stat == null && ingested(producerLog) >= PARTS - 4)
                {
                    stat = statOnce(journal);
                }
                Thread.sleep(200);
            }
            assertEquals(0, producer.exitValue(), Files.readString(producerLog));
            assertTrue(restarted, "restarted halfway");
            awaitRows(follower, dir.resolve("follower-2.log"), reference.size());
            awaitNoRemovedCycleOpen(journal);
            samples += sample(journal, max);
            final String finalStat = statOnce(journal);
            stop(follower, dir.resolve("follower-2.log"));
            follower = null;

            System.out.printf("retention under load: %d samples, at most %d events and %d results cycle files; %d cycles removed, %d steps%n",
                samples, max[0], max[1], counter(finalStat, "retention: cycle files removed"), counter(finalStat, "retention steps"));
            assertTrue(samples >= 20, "samples while a follower ran: " + samples); // ~100 on a quiet machine, fewer when sampling is slowed by load
            assertTrue(max[0] <= BOUND, "events cycle files never above keep + 4: at most " + max[0]);
            assertTrue(max[1] <= BOUND, "results cycle files never above keep + 4: at most " + max[1]);
            assertTrue(counter(stat, "retention steps") > 0, stat);
            assertTrue(counter(finalStat, "retention steps") > counter(stat, "retention steps"), "steps moving:\n" + stat + "\n" + finalStat);
            assertTrue(counter(finalStat, "retention: cycle files removed") > 0, finalStat);
            assertTrue(counter(finalStat, "retention: bytes removed") > 0, finalStat);
            assertEquals(0, counter(finalStat, "retention steps failed"), finalStat);
            assertTrue(HistoryBase.read(JournalDirectory.open(journal)).orElseThrow().firstOffset() > 0, "the base moved on");
            final int cyclesLeft = JournalCycles.events(JournalDirectory.open(journal)).cycles().size();
            assertTrue(cyclesLeft <= BOUND && cyclesLeft < PARTS / 2, "events cycles left: " + cyclesLeft);
        }
        finally
        {
            if (follower != null)
            {
                follower.destroyForcibly();
            }
            producer.destroyForcibly();
        }

        final List<String> retained = rows(table);
        assertEquals(reference.size(), retained.size(), "rows delivered with retention and without");
        assertEquals(reference, retained, "rows delivered with retention and without, row for row");

        final long lastParts = T0 + (PARTS - 3) * PART_SPAN_MS;
        final List<String> firstKeysLate = TestDatabase.rows(db, "SELECT DISTINCT key FROM " + table + " WHERE key LIKE 'first-%' AND window_start >= "
            + lastParts + " ORDER BY key");
        assertEquals(List.of("first-0", "first-1", "first-2", "first-3", "first-4", "first-5", "first-6", "first-7"), firstKeysLate,
            "keys first seen in removed cycles resolve, by name, in the last windows");
    }

    /** Parts of {@value #PER_PART} events, each {@value #PART_SPAN_MS} ms of event time after the one before; the last ends with a far later event. */
    private List<Path> writeParts() throws IOException
    {
        final List<Path> parts = new ArrayList<>();
        for (int p = 0; p < PARTS; p++)
        {
            final List<String> lines = new ArrayList<>(List.of(CsvLineParser.DEFAULT_HEADER));
            final boolean firstKeys = p < 3 || p >= PARTS - 3;
            for (int i = 0; i < PER_PART; i++)
            {
                final String key = firstKeys && i % 5 == 0 ? "first-" + (i / 5) % 8 : "k" + i % 20;
                lines.add((p * 1_000 + i) + "," + (T0 + p * PART_SPAN_MS + i * 100L) + "," + key + "," + (i % 97));
            }
            if (p == PARTS - 1)
            {
                lines.add("999999," + (T0 + PARTS * PART_SPAN_MS + 3_600_000L) + "," + SENTINEL + ",0");
            }
            final Path part = dir.resolve("part-" + p + ".csv");
            Files.write(part, lines);
            parts.add(part);
        }
        return parts;
    }

    private static String[] args(final Path journal, final List<Path> parts)
    {
        final List<String> args = new ArrayList<>(List.of(journal.toString(), "1000"));
        parts.forEach(p -> args.add(p.toString()));
        return args.toArray(new String[0]);
    }

    /**
     * The command with the scaled test clock: ×{@value #CLOCK_SCALE} from {@code origin}, a minutely cycle per three wall
     * seconds. Retention cannot remove a cycle the follower has not checkpointed past, so the files on disk are keep
     * plus the cycles the follower lags behind: at ×60 (a cycle per wall second) a follower slowed by a loaded
     * machine (load 23-29) held 6-7 files; three seconds a cycle leave it that much more slack.
     */
    private static List<String> clocked(final List<String> command, final long origin)
    {
        command.add(1, "-D" + JournalClock.ORIGIN_PROPERTY + "=" + origin);
        command.add(2, "-D" + JournalClock.SCALE_PROPERTY + "=" + CLOCK_SCALE);
        return command;
    }

    private Process startFollower(final Path journal, final long origin, final Path log) throws IOException
    {
        final List<String> command = clocked(ChildJvm.weir("512m", "run", "--journal", journal.toString(), "--follow", "--retention",
            KEEP_CYCLES + "m", "--window", "tumbling:10s", "--checkpoint-every", "200", "--jdbc-url", TestDatabase.URL, "--jdbc-table", table), origin);
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static void stop(final Process follower, final Path log) throws Exception
    {
        follower.destroy(); // SIGTERM: checkpoint, deliver what is left
        assertTrue(follower.waitFor(2, TimeUnit.MINUTES), "stopped");
        assertEquals(143, follower.exitValue(), Files.readString(log));
        final String text = Files.readString(log);
        assertFalse(text.contains("retention of") && text.contains("failed"), text);
    }

    private static void awaitJournal(final Path journal, final Process producer, final Path log) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (!(JournalDirectory.isJournal(journal) && Files.isDirectory(JournalDirectory.open(journal).eventsQueue())
            && !cycleFiles(JournalDirectory.open(journal).eventsQueue()).isEmpty()))
        {
            assertTrue(producer.isAlive() && System.nanoTime() < deadline, "the producer creates the journal:\n" + Files.readString(log));
            Thread.sleep(50);
        }
    }

    /**
     * Count the cycle files if a follower runs and has taken a step since it started.
     *
     * @return 1 if it sampled, else 0.
     */
    private static int sample(final Path journal, final int[] max) throws IOException
    {
        final JournalDirectory directory = JournalDirectory.open(journal);
        try (MetricsFile metrics = MetricsFile.open(directory.metricsFile()))
        {
            if (!metrics.running() || metrics.value(CounterTypes.RETENTION_STEPS) < 1)
            {
                return 0;
            }
        }
        catch (final IllegalStateException notYet)
        {
            return 0; // no metrics file yet, or one being replaced by the restarted follower
        }
        max[0] = Math.max(max[0], cycleFiles(directory.eventsQueue()).size());
        max[1] = Math.max(max[1], cycleFiles(directory.resultsQueue()).size());
        return 1;
    }

    private static List<String> cycleFiles(final Path queue) throws IOException
    {
        if (!Files.isDirectory(queue))
        {
            return List.of();
        }
        try (Stream<Path> files = Files.list(queue))
        {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".cq4")).sorted().toList();
        }
    }

    private static int ingested(final Path producerLog) throws IOException
    {
        return (int)Files.readAllLines(producerLog).stream().filter(l -> l.startsWith("ingested ")).count();
    }

    private static String statOnce(final Path journal)
    {
        final Cli stat = Cli.run("stat", journal.toString(), "--once");
        assertEquals(0, stat.exit(), stat.err());
        return stat.out();
    }

    /** @return the value of the {@code weir stat} line whose label is {@code label}. */
    private static long counter(final String stat, final String label)
    {
        for (final String line : stat.split("\n"))
        {
            final String[] fields = line.trim().split("\\s{2,}");
            if (fields[fields.length - 1].equals(label))
            {
                return Long.parseLong(fields[0].replace(",", ""));
            }
        }
        throw new AssertionError("no line '" + label + "' in:\n" + stat);
    }

    /**
     * Wait until no process (the follower, which has read past them) holds a removed cycle file open: its disk space is
     * free (issue 28, item 7; before, the follower kept the cycle its delivery's key lookups stopped in for its whole life).
     */
    private static void awaitNoRemovedCycleOpen(final Path journal) throws InterruptedException
    {
        HeldRemovedCycles held = HeldRemovedCycles.scan(journal);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (held != null && held.files() > 0 && System.nanoTime() < deadline)
        {
            Thread.sleep(100);
            held = HeldRemovedCycles.scan(journal);
        }
        assertTrue(held == null || held.files() == 0, "removed cycle files still open: " + held);
    }

    /**
     * Wait until the table holds as many rows as the reference run delivered (the follower applied the last
     * part), then until no more arrive for a moment (a duplicate would show in the comparison that follows).
     */
    private void awaitRows(final Process follower, final Path log, final int expected) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (System.nanoTime() < deadline)
        {
            assertTrue(follower.isAlive(), Files.readString(log));
            final long rows = Long.parseLong(TestDatabase.rows(db, "SELECT count(*) FROM " + table + " WHERE key <> '" + SENTINEL + "'").get(0));
            if (rows >= expected)
            {
                Thread.sleep(1_000);
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the table did not reach " + expected + " rows:\n" + Files.readString(log));
    }

    /** The rows of a bounded run of the same parts on a journal without retention. */
    private List<String> referenceRows(final List<Path> parts) throws SQLException
    {
        final Path journal = dir.resolve("reference");
        for (final Path part : parts)
        {
            final Cli ingest = Cli.run("ingest", "--input", part.toString(), "--journal", journal.toString());
            assertEquals(0, ingest.exit(), ingest.err());
        }
        final String reference = table + "_reference";
        final Cli run = Cli.run("run", "--journal", journal.toString(), "--window", "tumbling:10s", "--checkpoint-every", "200",
            "--jdbc-url", TestDatabase.URL, "--jdbc-table", reference);
        assertEquals(0, run.exit(), run.err());
        return rows(reference);
    }

    private List<String> rows(final String resultsTable) throws SQLException
    {
        final List<String> rows = TestDatabase.rows(db, "SELECT " + ROW + " FROM " + resultsTable + " WHERE key <> '" + SENTINEL + "'");
        Collections.sort(rows);
        return rows;
    }
}
