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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two named pipelines following one journal at once, each exactly-once on its own: two {@code weir run --follow
 * --pipeline} children (sliding windows, and sessions with a late side output) read a journal that {@code weir
 * ingest} children fill beside them chunk by chunk. One follower at a time is stopped at a random moment, with
 * SIGKILL three times in four and SIGTERM otherwise (it must exit 143), and restarted, while the other keeps
 * following: at least {@code -Dweir.kill.count.pipelines} stops (8 by default), spread over both. Once the ingests
 * are done, each pipeline's last follower runs until its own metrics file says it applied the journal's last event
 * and is stopped with SIGTERM. Each pipeline's output journal and exported files must then equal those of one
 * uninterrupted follower of that pipeline alone, over a journal holding the same events ingested in one go.
 */
class PipelinesFollowKillTest
{
    private static final int STOPS = KillRounds.count("weir.kill.count.pipelines", 8);
    private static final int EVENTS = 20_000;
    private static final int CHUNKS = 4;
    private static final String[] PIPELINES = {"spend", "bursts"};
    private static final List<List<String>> FLAGS = List.of(
        List.of("--window", "sliding:2s/500ms", "--out-of-orderness", "400", "--checkpoint-every", "700"),
        List.of("--window", "session:20ms", "--out-of-orderness", "200", "--allowed-lateness", "500ms", "--checkpoint-every", "1100"));

    @TempDir
    Path dir;

    private final SplittableRandom random = new SplittableRandom(14);
    private final AtomicInteger children = new AtomicInteger();

    @Test
    void twoPipelinesFollowingOneJournalStoppedAndKilledEachWriteEveryOutputExactlyOnce() throws Exception
    {
        final Path input = dir.resolve("events.csv");
        KillHarness.writeEvents(input, EVENTS, 50, 14, 1, 0);
        final List<String> lines = Files.readAllLines(input, StandardCharsets.UTF_8);

        final Path reference = dir.resolve("reference");
        ingest(input, reference);
        for (int p = 0; p < PIPELINES.length; p++)
        {
            stopWhenCaughtUp(reference, p, KillHarness.startChild(follow(reference, p), log("reference-" + PIPELINES[p])));
        }

        final Path killed = dir.resolve("killed");
        final Path growing = dir.resolve("growing.csv");
        final int chunk = (lines.size() + CHUNKS - 1) / CHUNKS;
        Files.write(growing, lines.subList(0, chunk), StandardCharsets.UTF_8);
        ingest(growing, killed);
        final AtomicInteger stops = new AtomicInteger();
        final CompletableFuture<Void> ingests = CompletableFuture.runAsync(() ->
        {
            for (int c = 1; c < CHUNKS; c++)
            {
                while (stops.get() < c * STOPS / CHUNKS)
                {
                    FollowerProgress.sleep(5);
                }
                try
                {
                    Files.write(growing, lines.subList(c * chunk, Math.min(lines.size(), (c + 1) * chunk)), StandardCharsets.UTF_8,
                        StandardOpenOption.APPEND);
                    ingest(growing, killed);
                }
                catch (final Exception ex)
                {
                    throw new IllegalStateException(ex);
                }
            }
        });
        final Process[] followers = new Process[PIPELINES.length];
        final Path[] logs = new Path[PIPELINES.length];
        final int[] kills = new int[PIPELINES.length];
        final int[] terms = new int[PIPELINES.length];
        try
        {
            for (int p = 0; p < PIPELINES.length; p++)
            {
                logs[p] = log("follower-" + PIPELINES[p]);
                followers[p] = KillHarness.startChild(follow(killed, p), logs[p]);
            }
            while (stops.get() < STOPS)
            {
                final int p = random.nextInt(PIPELINES.length);
                Thread.sleep(random.nextLong(2_500));
                for (int q = 0; q < PIPELINES.length; q++)
                {
                    if (!followers[q].isAlive())
                    {
                        fail(PIPELINES[q] + "'s follower exited with " + followers[q].exitValue() + ":\n" + Files.readString(logs[q]));
                    }
                }
                if (stops.get() % 4 == 3)
                {
                    followers[p].destroy(); // SIGTERM: it checkpoints, exports and exits 143
                    assertTrue(followers[p].waitFor(5, TimeUnit.MINUTES), "the follower stops on SIGTERM");
                    assertEquals(143, followers[p].exitValue(), Files.readString(logs[p]));
                    terms[p]++;
                }
                else
                {
                    followers[p].destroyForcibly(); // SIGKILL
                    followers[p].waitFor();
                    kills[p]++;
                }
                stops.incrementAndGet();
                logs[p] = log("follower-" + PIPELINES[p]);
                followers[p] = KillHarness.startChild(follow(killed, p), logs[p]);
            }
            ingests.get(10, TimeUnit.MINUTES);
            for (int p = 0; p < PIPELINES.length; p++)
            {
                stopWhenCaughtUp(killed, p, followers[p]);
            }
        }
        finally
        {
            for (final Process follower : followers)
            {
                if (follower != null)
                {
                    follower.destroyForcibly();
                }
            }
        }
        System.out.printf("two following pipelines: %s killed %d and stopped %d times, %s killed %d and stopped %d times; %d children%n",
            PIPELINES[0], kills[0], terms[0], PIPELINES[1], kills[1], terms[1], children.get());

        KillHarness.assertSameLines("every event once in the journal", JournalContents.events(reference.resolve("journal")),
            JournalContents.events(killed.resolve("journal")));
        for (int p = 0; p < PIPELINES.length; p++)
        {
            final List<String> outputs = OutputJournalContents.outputs(reference.resolve("journal"), PIPELINES[p]);
            assertTrue(outputs.size() > 500, PIPELINES[p] + " outputs: " + outputs.size());
            KillHarness.assertSameLines(PIPELINES[p] + "'s output journal, output by output with versions and source events", outputs,
                OutputJournalContents.outputs(killed.resolve("journal"), PIPELINES[p]));
        }
        KillHarness.assertSameFiles("the exported files of both pipelines", KillRounds.files(reference), KillRounds.files(killed));
        assertTrue(OutputJournalContents.outputs(reference.resolve("journal"), PIPELINES[1]).stream().anyMatch(o -> o.startsWith("late,")),
            "the sessions pipeline has late events");
    }

    private void ingest(final Path csv, final Path out) throws Exception
    {
        final Path log = log("ingest");
        final Process ingest = KillHarness.startChild(new String[] {"ingest", "--input", csv.toString(), "--journal",
            out.resolve("journal").toString(), "--rejected", out.resolve("rejected.csv").toString()}, log);
        assertTrue(ingest.waitFor(10, TimeUnit.MINUTES), "an ingest ran for 10 minutes");
        assertEquals(0, ingest.exitValue(), Files.readString(log));
    }

    /** Let a pipeline's follower run until its counters say it applied the journal's last event, then stop it with SIGTERM. */
    private static void stopWhenCaughtUp(final Path out, final int p, final Process follower) throws Exception
    {
        final Path journal = out.resolve("journal");
        final long lastEvent = lastEventOffset(journal);
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (FollowerProgress.appliedOffset(JournalDirectory.open(journal).pipeline(PIPELINES[p]), follower.pid()) < lastEvent)
        {
            assertTrue(follower.isAlive(), PIPELINES[p] + "'s follower exited");
            assertTrue(System.nanoTime() < deadline, PIPELINES[p] + "'s follower did not catch up in 10 minutes");
            FollowerProgress.sleep(20);
        }
        follower.destroy(); // SIGTERM
        assertTrue(follower.waitFor(5, TimeUnit.MINUTES), "the follower stops on SIGTERM");
        assertEquals(143, follower.exitValue());
    }

    private static String[] follow(final Path out, final int p)
    {
        final String name = PIPELINES[p];
        final List<String> args = new ArrayList<>(List.of("run", "--follow", "--journal", out.resolve("journal").toString(), "--pipeline", name,
            "--results", out.resolve(name + "-results.csv").toString()));
        if (FLAGS.get(p).contains("--allowed-lateness"))
        {
            args.addAll(List.of("--late", "side", "--late-output", out.resolve(name + "-late.csv").toString()));
        }
        args.addAll(FLAGS.get(p));
        return args.toArray(String[]::new);
    }

    private Path log(final String what)
    {
        return dir.resolve(what + "-" + children.getAndIncrement() + ".log");
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
