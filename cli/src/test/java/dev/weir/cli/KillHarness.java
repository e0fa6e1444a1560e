package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import dev.weir.journal.IngestLog;
import dev.weir.journal.JournalDirectory;

/**
 * What the kill tests share: a child JVM running the {@code weir} command line from the test classpath
 * (so it can be killed with SIGKILL), a generated events CSV with malformed and late lines, and a look
 * at how far an ingest got.
 */
final class KillHarness
{
    private KillHarness()
    {
    }

    /**
     * @param weirArgs the command line.
     * @param log      where its output goes.
     * @return the started child.
     * @throws IOException if it cannot start.
     */
    static Process startChild(final String[] weirArgs, final Path log) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(Files.readString(Path.of("target", "weir.jvmopts")).trim().split("\\s+")));
        command.add("-Xmx512m");
        command.add("-cp");
        final String classpath = System.getProperty("java.class.path");
        assertTrue(classpath.contains("picocli") && classpath.contains("chronicle-queue"), "the test classpath reaches the child: " + classpath);
        command.add(classpath);
        command.add(WeirCommand.class.getName());
        command.addAll(List.of(weirArgs));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /**
     * Write an events CSV: event times advance by 1 ms every 2 events; about 1 line in 1,000 is malformed,
     * 1 event in 200 is 3 to 5 s late, the others up to 400 ms out of order.
     *
     * @param file   the CSV.
     * @param events valid events.
     * @param keys   distinct keys.
     * @param seed   the stream's seed.
     * @throws IOException if it cannot be written.
     */
    static void writeEvents(final Path file, final int events, final int keys, final long seed) throws IOException
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
                out.write(i + "," + time + ",k" + random.nextInt(keys) + "," + (random.nextInt(20_000) - 10_000) + "\n");
            }
        }
    }

    /**
     * @param journal a journal directory, or where one will be.
     * @return the events ingested into it so far.
     */
    static long ingestedLines(final Path journal)
    {
        if (!JournalDirectory.isJournal(journal))
        {
            return 0;
        }
        return IngestLog.counts(JournalDirectory.open(journal)).events();
    }
}
