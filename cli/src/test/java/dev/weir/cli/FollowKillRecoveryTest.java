package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.testsupport.KillHarness;
import dev.weir.testsupport.KillRounds;
import dev.weir.testsupport.OutputJournalContents;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Exactly-once while following, proven by killing: {@code weir run --follow --journal DIR} in a child JVM
 * processes a journal that {@code weir ingest} children fill beside it, chunk by chunk, from a CSV that
 * grows between the ingests. The follower is stopped at random moments (a quarter of them as a checkpoint
 * file is being written, if one is within the random delay) and restarted: 8 times in 10 with SIGKILL;
 * once with SIGTERM (it must exit 143); once with SIGTERM followed, 0 to 150 ms later, by SIGKILL while it
 * stops. That makes at least {@code -Dweir.kill.count.follow} kills per case (12 by default); one ingest in
 * three is killed too, and rerun. The chunks are paced by the kills, so the kills land while the ingest
 * runs, between ingests and after the last one. Two cases: results in one CSV; and {@code --dedupe} (5% of
 * the events written twice) with {@code --output-dir}.
 * <p>
 * A following run never ends by itself, so the end is made deterministic: once the ingests are done, a
 * last follower runs until its published counters say it applied the journal's last event, and is then
 * stopped with SIGTERM (it checkpoints and exports, exit 143). Its output journal (every result with its
 * version and source event, every late event, in order), its exported files and the journal's events must
 * then equal those of one uninterrupted follower that read the same events, ingested in one go, and was
 * stopped the same way.
 */
@Tag("slow")
class FollowKillRecoveryTest
{
    private static final int KILLS = KillRounds.count("weir.kill.count.follow", 12);
    private static final int EVENTS = 40_000;
    private static final int CHUNKS = 6;
    private static final List<String> FLAGS = List.of("--window", "sliding:2s/500ms", "--out-of-orderness", "400ms", "--allowed-lateness", "1s",
        "--late", "side", "--checkpoint-every", "1000");

    @TempDir
    Path dir;

    private final SplittableRandom random = new SplittableRandom(12);
    private volatile int children;
    private volatile boolean ingesting;

    private List<String> options;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"--results", "--dedupe --output-dir"})
    void killedWhileFollowingAnIngestTheRunStillWritesEveryOutputExactlyOnce(final String variant) throws Exception
    {
        options = List.of(variant.split(" "));
        final Path input = dir.resolve("events.csv");
        KillHarness.writeEvents(input, EVENTS, 1_000, 12, 1, options.contains("--dedupe") ? 50 : 0);
        final List<String> lines = Files.readAllLines(input, StandardCharsets.UTF_8);

        // the reference: everything ingested in one go, one follower, stopped once it applied the last event
        final Path reference = dir.resolve("reference");
        ingest(input, reference, 0, new SplittableRandom(1));
        stopWhenCaughtUp(reference);

        // the killed run: the CSV grows chunk by chunk, each chunk ingested beside the follower once enough kills happened
        final Path killed = dir.resolve("killed");
        final Path growing = dir.resolve("growing.csv");
        final int chunk = (lines.size() + CHUNKS - 1) / CHUNKS;
        Files.write(growing, lines.subList(0, chunk), StandardCharsets.UTF_8);
        final SplittableRandom ingestRandom = new SplittableRandom(21);
        int ingestKills = ingest(growing, killed, 3, ingestRandom);
        final AtomicInteger kills = new AtomicInteger();
        final CompletableFuture<Integer> ingests = CompletableFuture.supplyAsync(() ->
        {
            int killedIngests = 0;
            for (int c = 1; c < CHUNKS; c++)
            {
                while (kills.get() < c * KILLS / CHUNKS)
                {
                    FollowerProgress.sleep(5);
                }
                try
                {
                    Files.write(growing, lines.subList(c * chunk, Math.min(lines.size(), (c + 1) * chunk)), StandardCharsets.UTF_8,
                        StandardOpenOption.APPEND);
                    killedIngests += ingest(growing, killed, 3, ingestRandom);
                }
                catch (final Exception ex)
                {
                    throw new IllegalStateException(ex);
                }
            }
            return killedIngests;
        });
        int duringIngest = 0;
        int duringCheckpoint = 0;
        int duringStop = 0;
        int stops = 0;
        while (kills.get() < KILLS)
        {
            final long started = System.currentTimeMillis();
            final Path log = dir.resolve("follower-" + children++ + ".log");
            final Process follower = KillHarness.startChild(follow(killed), log);
            final boolean aimAtCheckpoint = random.nextInt(4) == 0;
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(random.nextLong(4_000));
            while (System.nanoTime() < deadline && !(aimAtCheckpoint && KillRounds.hasCheckpointTemp(killed, started))
                && !follower.waitFor(1, TimeUnit.MILLISECONDS))
            {
                // a random moment, or (if earlier) a checkpoint being written
            }
            if (!follower.isAlive())
            {
                fail("the follower exited with " + follower.exitValue() + ":\n" + Files.readString(log));
            }
            final int how = random.nextInt(10);
            if (how >= 8)
            {
                follower.destroy(); // SIGTERM: it stops, checkpoints, exports and exits 143 ...
                if (how == 8 || follower.waitFor(random.nextInt(150), TimeUnit.MILLISECONDS))
                {
                    assertTrue(follower.waitFor(10, TimeUnit.MINUTES), "the follower stops on SIGTERM");
                    assertEquals(143, follower.exitValue(), Files.readString(log));
                    stops++;
                    continue;
                }
                duringStop++; // ... unless it is killed while it does
            }
            follower.destroyForcibly(); // SIGKILL
            follower.waitFor();
            duringIngest += ingesting ? 1 : 0;
            duringCheckpoint += KillRounds.hasCheckpointTemp(killed, started) ? 1 : 0;
            kills.incrementAndGet();
        }
        ingestKills += ingests.get(10, TimeUnit.MINUTES);
        stopWhenCaughtUp(killed);
        System.out.printf("--follow " + variant + ": %d kills of the follower (%d while an ingest was running, %d while writing a checkpoint, "
                + "%d while stopping after SIGTERM), %d stops by SIGTERM, %d kills of the ingest beside it, %d children started%n",
            kills.get(), duringIngest, duringCheckpoint, duringStop, stops, ingestKills, children);

        KillHarness.assertSameLines("every event once in the journal", JournalContents.events(reference.resolve("journal")),
            JournalContents.events(killed.resolve("journal")));
        final List<String> outputs = OutputJournalContents.outputs(reference.resolve("journal"));
        KillHarness.assertSameLines("the output journal, output by output with versions and source events", outputs,
            OutputJournalContents.outputs(killed.resolve("journal")));
        KillHarness.assertSameFiles("the exported files", KillRounds.files(reference), KillRounds.files(killed));
        assertTrue(outputs.size() > 10_000, "outputs: " + outputs.size());
        assertTrue(outputs.stream().filter(o -> o.startsWith("late,")).count() > 10, "the stream has late events");
        if (options.contains("--output-dir"))
        {
            assertTrue(KillRounds.files(reference).containsKey("partitions/date=1970-01-01/results.csv"), "the partition is exported");
        }
    }

    /** Ingest a CSV into {@code out/journal}; kill it at a random moment, at most {@code kills} times, then let it complete. */
    private int ingest(final Path csv, final Path out, final int kills, final SplittableRandom random) throws Exception
    {
        int killed = 0;
        while (true)
        {
            final Path log = out.resolveSibling(out.getFileName() + "-ingest-" + children++ + ".log");
            ingesting = true;
            final Process ingest = KillHarness.startChild(new String[] {"ingest", "--input", csv.toString(), "--journal",
                out.resolve("journal").toString(), "--rejected", out.resolve("rejected.csv").toString()}, log);
            if (killed < kills && random.nextInt(3) == 0 && !ingest.waitFor(random.nextLong(2_000), TimeUnit.MILLISECONDS))
            {
                ingest.destroyForcibly(); // SIGKILL
                ingest.waitFor();
                ingesting = false;
                killed++;
                continue;
            }
            assertTrue(ingest.waitFor(10, TimeUnit.MINUTES), "an ingest ran for 10 minutes");
            ingesting = false;
            assertEquals(0, ingest.exitValue(), Files.readString(log));
            return killed;
        }
    }

    /** Run a follower until its counters say it applied the journal's last event, then stop it with SIGTERM. */
    private void stopWhenCaughtUp(final Path out) throws Exception
    {
        final long lastEvent = lastEventOffset(out.resolve("journal"));
        final Path log = dir.resolve("follower-" + children++ + ".log");
        final Process follower = KillHarness.startChild(follow(out), log);
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (FollowerProgress.appliedOffset(JournalDirectory.open(out.resolve("journal")), follower.pid()) < lastEvent)
        {
            assertTrue(follower.isAlive(), "the follower exited:\n" + Files.readString(log));
            assertTrue(System.nanoTime() < deadline, "the follower did not catch up in 10 minutes");
            FollowerProgress.sleep(20);
        }
        follower.destroy(); // SIGTERM
        assertTrue(follower.waitFor(10, TimeUnit.MINUTES), "the follower stops on SIGTERM");
        assertEquals(143, follower.exitValue(), Files.readString(log));
    }

    private String[] follow(final Path out)
    {
        final List<String> args = new ArrayList<>(List.of("run", "--follow", "--journal", out.resolve("journal").toString(),
            "--late-output", out.resolve("late.csv").toString()));
        args.addAll(options.contains("--output-dir") ? List.of("--output-dir", out.resolve("partitions").toString())
            : List.of("--results", out.resolve("results.csv").toString()));
        if (options.contains("--dedupe"))
        {
            args.add("--dedupe");
        }
        args.addAll(FLAGS);
        return args.toArray(String[]::new);
    }

    private static long lastEventOffset(final Path journal)
    {
        final long[] last = {-1};
        try (JournalReader reader = JournalReader.open(JournalDirectory.open(journal)))
        {
            while (reader.poll((offset, id, time, key, value) -> last[0] = offset, 4096) > 0)
            {
                // drain
            }
        }
        return last[0];
    }
}
