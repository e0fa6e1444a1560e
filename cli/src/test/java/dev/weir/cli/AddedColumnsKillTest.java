package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.testsupport.JournalRows;
import dev.weir.testsupport.KillHarness;
import dev.weir.testsupport.KillRounds;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL during the first {@code weir ingest} whose {@code --columns} add columns to a journal: a child JVM
 * runs it and is killed, for several seeds, as soon as the journal's marker has been rewritten with the new
 * columns, or once the journal's last offset has grown by a number of documents drawn at random; then the
 * ingest is started again, until one completes (and, on a fresh journal, again until the seed's kills have
 * landed). After every kill the journal opens with the four columns or the six, and its events are a prefix of
 * the uninterrupted reference's; at the end they equal the reference's
 * (nothing lost, nothing doubled), as do the rejected lines, the event and rejected-line counts of
 * {@code weir inspect}, and the rows of a pipeline keyed by a new column.
 */
@Tag("slow")
class AddedColumnsKillTest
{
    private static final int FIRST = 2_000;
    private static final int SECOND = Integer.getInteger("weir.kill.columns-added.events", 300_000);
    private static final long DATA_SEED = 7;
    private static final long CHILD_TIMEOUT_MS = TimeUnit.MINUTES.toMillis(5);
    private static final String[] CHANNELS = {"--key", "channel", "--value", "fee", "--window", "tumbling:10s", "--out-of-orderness", "5s"};

    @TempDir
    Path dir;

    @Test
    void aKilledIngestThatAddsColumnsResumesWithNothingLostOrDoubled() throws Exception
    {
        final Path four = dir.resolve("first-four.csv");
        final Path second = dir.resolve("second.csv");
        AddedColumnsCsv.write(four, 0, FIRST, DATA_SEED, AddedColumnsCsv.Shape.FOUR);
        AddedColumnsCsv.write(second, FIRST, FIRST + SECOND, DATA_SEED, AddedColumnsCsv.Shape.SIX);

        final Path reference = dir.resolve("reference");
        ok("ingest", "--input", four.toString(), "--columns", AddedColumnsCsv.FOUR, "--journal", journal(reference));
        ok(ingestSecond(second, reference));
        final List<String> referenceEvents = JournalRows.events(reference.resolve("journal"));
        assertEquals(FIRST + SECOND, referenceEvents.size(), "the reference holds every event once");
        final String referenceChannels = channels(reference);
        final String referenceCounts = counts(reference);

        final int seeds = Integer.getInteger("weir.kill.columns-added.seeds", 3);
        final int killsPerSeed = KillRounds.count("weir.kill.count.columns-added", 4);
        int markerKills = 0;
        int ingestKills = 0;
        int attempts = 0;
        for (int seed = 1; seed <= seeds; seed++)
        {
            final SplittableRandom random = new SplittableRandom(seed);
            int killed = 0;
            for (int round = 0; killed < killsPerSeed; round++)
            {
                final Path out = dir.resolve("seed-" + seed + "-round-" + round);
                ok("ingest", "--input", four.toString(), "--columns", AddedColumnsCsv.FOUR, "--journal", journal(out));
                final Path marker = out.resolve("journal").resolve(JournalDirectory.MARKER_FILE);
                final byte[] fourMarker = Files.readAllBytes(marker);
                try (JournalReader progress = JournalReader.open(JournalDirectory.open(out.resolve("journal"))))
                {
                    while (true)
                    {
                        assertTrue(++attempts < seeds * killsPerSeed * 10, "too many attempts");
                        final Path log = out.resolve("child-" + attempts + ".log");
                        final boolean atMarker = random.nextInt(4) == 0 && Arrays.equals(fourMarker, Files.readAllBytes(marker));
                        final long target = progress.lastOffset() + 1 + random.nextInt(SECOND * 9 / 10);
                        final Process child = KillHarness.startChild(ingestSecond(second, out), log);
                        if (killed < killsPerSeed && killWhen(child, log, () -> atMarker ? !Arrays.equals(fourMarker, Files.readAllBytes(marker))
                            : progress.lastOffset() >= target))
                        {
                            killed++;
                            if (atMarker)
                            {
                                markerKills++;
                            }
                            else
                            {
                                ingestKills++;
                            }
                            final String schema = JournalDirectory.open(out.resolve("journal")).schema().toString();
                            assertTrue(schema.equals(AddedColumnsCsv.FOUR) || schema.equals(JournalSchema.parse(AddedColumnsCsv.SIX).toString()),
                                "seed " + seed + ": the journal opens after a kill, with the four columns or the six: " + schema);
                            final List<String> events = JournalRows.events(out.resolve("journal"));
                            KillHarness.assertSameLines("seed " + seed + ", kill " + killed + ": the events are a prefix of the reference's",
                                referenceEvents.subList(0, events.size()), events);
                            continue;
                        }
                        if (!child.waitFor(CHILD_TIMEOUT_MS, TimeUnit.MILLISECONDS))
                        {
                            child.destroyForcibly();
                            fail("seed " + seed + ": an ingest ran for 5 minutes:\n" + Files.readString(log));
                        }
                        assertEquals(0, child.exitValue(), Files.readString(log));
                        break; // after its kills, or before the moment drawn: the next round kills again
                    }
                }
                final String name = "seed " + seed + ", round " + round + " (" + killed + " kills so far)";
                assertEquals(JournalSchema.parse(AddedColumnsCsv.SIX), JournalDirectory.open(out.resolve("journal")).schema(), name);
                KillHarness.assertSameLines(name + ": every event once, every column", referenceEvents, JournalRows.events(out.resolve("journal")));
                KillHarness.assertSameLines(name + ": the rejected lines", Files.readAllLines(reference.resolve("rejected.csv")),
                    Files.readAllLines(out.resolve("rejected.csv")));
                assertEquals(referenceCounts, counts(out), name + ": weir inspect's counts");
                KillHarness.assertSameLines(name + ": a pipeline keyed by a new column", List.of(referenceChannels.split("\n")),
                    List.of(channels(out).split("\n")));
            }
        }
        System.out.printf("AddedColumnsKillTest: %d kills as the marker was rewritten, %d during the ingest, over %d seeds (%d ingests)%n",
            markerKills, ingestKills, seeds, attempts);
    }

    /** A condition the test waits for. */
    private interface Condition
    {
        boolean holds() throws Exception;
    }

    /** @return true if the child was killed once the condition held; false if it exited first. */
    private static boolean killWhen(final Process child, final Path log, final Condition condition) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CHILD_TIMEOUT_MS);
        while (!condition.holds())
        {
            if (child.waitFor(1, TimeUnit.MILLISECONDS))
            {
                return false;
            }
            assertTrue(System.nanoTime() < deadline, "a child ran for 5 minutes:\n" + Files.readString(log));
        }
        child.destroyForcibly(); // SIGKILL
        child.waitFor();
        return true;
    }

    private static String[] ingestSecond(final Path second, final Path out)
    {
        return new String[] {"ingest", "--input", second.toString(), "--columns", AddedColumnsCsv.SIX, "--journal", journal(out),
            "--rejected", out.resolve("rejected.csv").toString()};
    }

    /** @return the results of a pipeline keyed and valued by the new columns. */
    private static String channels(final Path out) throws Exception
    {
        final String[] args = new String[4 + CHANNELS.length];
        System.arraycopy(new String[] {"run", "--journal", journal(out), "--results=" + out.resolve("channels.csv")}, 0, args, 0, 4);
        System.arraycopy(CHANNELS, 0, args, 4, CHANNELS.length);
        ok(args);
        return Files.readString(out.resolve("channels.csv"));
    }

    /** @return weir inspect's event and rejected-line counts (the ingests differ: each restart records one). */
    private static String counts(final Path out)
    {
        final String line = ok("inspect", journal(out)).out().lines().filter(l -> l.startsWith("events ")).findFirst().orElseThrow();
        return line.substring(0, line.indexOf(" rejected lines"));
    }

    private static String journal(final Path out)
    {
        return out.resolve("journal").toString();
    }

    private static Cli ok(final String... args)
    {
        final Cli cli = Cli.run(args);
        assertEquals(0, cli.exit(), String.join(" ", args) + ":\n" + cli.out() + cli.err());
        return cli;
    }
}
