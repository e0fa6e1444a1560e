package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import dev.weir.journal.JournalDirectory;
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
        writeEvents(input, EVENTS, window.hashCode());
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
            final Process child = startChild(args(input, killed, flags), dir.resolve("child-" + attempts + ".log"));
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
                if (ingestedLines(killed.resolve("journal")) < EVENTS)
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

    private static Process startChild(final String[] weirArgs, final Path log) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(Files.readString(Path.of("target", "weir.jvmopts")).trim().split("\\s+")));
        command.add("-Xmx512m");
        command.add("-cp");
        command.add(testClasspath());
        command.add(WeirCommand.class.getName());
        command.addAll(List.of(weirArgs));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static String testClasspath()
    {
        final String classpath = System.getProperty("java.class.path");
        assertTrue(classpath.contains("picocli") && classpath.contains("chronicle-queue"), "the test classpath reaches the child: " + classpath);
        return classpath;
    }

    private static void writeEvents(final Path file, final int events, final long seed) throws IOException
    {
        final SplittableRandom random = new SplittableRandom(seed);
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8))
        {
            out.write(EventLine.HEADER);
            out.write('\n');
            for (int i = 0; i < events; i++)
            {
                if (random.nextInt(1_000) == 0)
                {
                    out.write("malformed," + i + "\n");
                }
                final long lateBy = random.nextInt(200) == 0 ? 3_000 + random.nextInt(2_000) : random.nextInt(400);
                final long time = Math.max(0, 100_000L + i / 2 - lateBy);
                out.write(i + "," + time + ",k" + random.nextInt(2_000) + "," + (random.nextInt(20_000) - 10_000) + "\n");
            }
        }
    }


    private static long ingestedLines(final Path journal)
    {
        if (!JournalDirectory.isJournal(journal))
        {
            return 0;
        }
        final dev.weir.journal.IngestLog.Counts counts = dev.weir.journal.IngestLog.counts(JournalDirectory.open(journal));
        return counts.events();
    }
}
