package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Exactly-once, proven by killing: a child JVM runs {@code weir run --journal DIR} on a generated stream
 * (ingest, processing with checkpoints, output export) while this test kills it with SIGKILL at random
 * moments and restarts it, at least {@code -Dweir.kill.count} times (20 by default; 200 for the long
 * version). The final results and late events must equal, row for row and in order, those of a run that
 * was never killed, and the journal must hold every valid input line exactly once.
 */
class KillRecoveryTest
{
    private static final int KILLS = Integer.getInteger("weir.kill.count", 20);
    private static final int EVENTS = 400_000;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"tumbling:2s", "sliding:2s/500ms", "session:1s"})
    void killedAtRandomMomentsTheRunStillWritesEveryResultExactlyOnce(final String window) throws Exception
    {
        final Path input = dir.resolve("events.csv");
        KillHarness.writeEvents(input, EVENTS, 2_000, window.hashCode());
        final List<String> flags = List.of("--window", window, "--out-of-orderness", "400", "--allowed-lateness", "1s", "--late", "side",
            "--checkpoint-every", "2000");

        final Path reference = dir.resolve("reference");
        final Cli clean = Cli.run(args(input, reference, flags));
        assertEquals(0, clean.exit(), clean.err());

        final Path killed = dir.resolve("killed");
        final SplittableRandom random = new SplittableRandom(window.hashCode() * 31L);
        int kills = 0;
        int killsDuringIngest = 0;
        int completions = 0;
        int attempts = 0;
        while (kills < KILLS || completions == 0)
        {
            attempts++;
            assertTrue(attempts < KILLS * 20 + 50, "too many attempts: " + attempts);
            final Process child = KillHarness.startChild(args(input, killed, flags), dir.resolve("child-" + attempts + ".log"));
            // the child spends its first ~0.8 s starting the JVM and Chronicle, then ingests, then processes:
            // the first third of the kills aim at the ingest, the rest anywhere
            final long delayMs = kills >= KILLS ? 600_000 : kills < KILLS / 3 ? 500 + random.nextInt(800) : 300 + random.nextInt(2_000);
            if (child.waitFor(delayMs, TimeUnit.MILLISECONDS))
            {
                if (child.exitValue() != 0)
                {
                    fail("child exited with " + child.exitValue() + ":\n" + Files.readString(dir.resolve("child-" + attempts + ".log")));
                }
                completions++;
            }
            else
            {
                child.destroyForcibly(); // SIGKILL
                child.waitFor();
                kills++;
                if (KillHarness.ingestedLines(killed.resolve("journal")) < EVENTS)
                {
                    killsDuringIngest++;
                }
            }
        }

        System.out.printf("%s: %d kills (%d during ingest, %d during processing, checkpoints or export), %d runs to completion%n",
            window, kills, killsDuringIngest, kills - killsDuringIngest, completions);
        assertEquals(Files.readAllLines(reference.resolve("results.csv")), Files.readAllLines(killed.resolve("results.csv")),
            "results after " + kills + " kills");
        assertEquals(Files.readAllLines(reference.resolve("late.csv")), Files.readAllLines(killed.resolve("late.csv")), "late events");
        assertEquals(Files.readAllLines(reference.resolve("rejected.csv")), Files.readAllLines(killed.resolve("rejected.csv")), "rejected lines");
        assertEquals(JournalContents.events(reference.resolve("journal")), JournalContents.events(killed.resolve("journal")), "every valid line once in the journal");
        assertTrue(Files.readAllLines(killed.resolve("late.csv")).size() > 10, "the stream has late events");
    }

    private static String[] args(final Path input, final Path out, final List<String> flags)
    {
        final List<String> args = new ArrayList<>(List.of("run", "--input", input.toString(), "--journal", out.resolve("journal").toString(),
            "--results", out.resolve("results.csv").toString(), "--late-output", out.resolve("late.csv").toString(),
            "--rejected", out.resolve("rejected.csv").toString()));
        args.addAll(flags);
        return args.toArray(String[]::new);
    }
}
