package dev.weir.testsupport;

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
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import dev.weir.journal.IngestLog;
import dev.weir.journal.JournalDirectory;

/**
 * What the kill tests share: a child JVM running the {@code weir} command line from the test classpath
 * (so it can be killed with SIGKILL), a generated events CSV with malformed, late and duplicated lines, a
 * look at how far an ingest got, and comparisons that print the first difference rather than whole files.
 * Stateless; safe from any thread.
 */
public final class KillHarness
{
    /** The header line of an events CSV of the default columns. */
    public static final String EVENTS_HEADER = "event_id,event_time,key,value";

    private KillHarness()
    {
    }

    /**
     * @param weirArgs the command line.
     * @param log      where its output goes.
     * @return the started child.
     * @throws IOException if it cannot start.
     */
    public static Process startChild(final String[] weirArgs, final Path log) throws IOException
    {
        final String classpath = System.getProperty("java.class.path");
        assertTrue(classpath.contains("picocli") && classpath.contains("chronicle-queue"), "the test classpath reaches the child: " + classpath);
        final List<String> command = ChildJvm.weir("512m", weirArgs);
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
    public static void writeEvents(final Path file, final int events, final int keys, final long seed) throws IOException
    {
        writeEvents(file, events, keys, seed, 1, 0);
    }

    /**
     * Write an events CSV: event times advance by {@code stepMs} every 2 events; about 1 line in 1,000 is
     * malformed, 1 event in 200 is 3,000 to 5,000 steps late, the others up to 400 steps out of order; and
     * {@code duplicatesPerMille} events in 1,000 are written again (same line: id, time, key and value),
     * 1 to 300 lines later, as a retrying producer would.
     *
     * @param file               the CSV.
     * @param events             distinct events.
     * @param keys               distinct keys.
     * @param seed               the stream's seed.
     * @param stepMs             event time per 2 events.
     * @param duplicatesPerMille events in 1,000 written twice.
     * @return the event lines written, duplicates included.
     * @throws IOException if it cannot be written.
     */
    public static long writeEvents(final Path file, final int events, final int keys, final long seed, final long stepMs, final int duplicatesPerMille)
        throws IOException
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final TreeMap<Integer, List<String>> retries = new TreeMap<>();
        long lines = 0;
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8))
        {
            out.write(EVENTS_HEADER);
            out.write('\n');
            for (int i = 0; i < events; i++)
            {
                if (random.nextInt(1_000) == 0)
                {
                    out.write("malformed," + i + "\n");
                }
                final long lateBy = random.nextInt(200) == 0 ? 3_000 + random.nextInt(2_000) : random.nextInt(400);
                final long time = Math.max(0, 100_000L * stepMs + (i / 2 - lateBy) * stepMs);
                final String line = i + "," + time + ",k" + random.nextInt(keys) + "," + (random.nextInt(20_000) - 10_000) + "\n";
                out.write(line);
                lines++;
                if (duplicatesPerMille > 0 && random.nextInt(1_000) < duplicatesPerMille)
                {
                    retries.computeIfAbsent(i + 1 + random.nextInt(300), k -> new ArrayList<>()).add(line);
                }
                final List<String> due = retries.remove(i);
                if (due != null)
                {
                    for (final String retry : due)
                    {
                        out.write(retry);
                        lines++;
                    }
                }
            }
            for (final List<String> due : retries.values())
            {
                for (final String retry : due)
                {
                    out.write(retry);
                    lines++;
                }
            }
        }
        return lines;
    }

    /**
     * Assert two lists of lines are equal, with a short message: the sizes and the first difference.
     *
     * @param what     what is compared.
     * @param expected the expected lines.
     * @param actual   the actual lines.
     */
    public static void assertSameLines(final String what, final List<String> expected, final List<String> actual)
    {
        if (expected.equals(actual))
        {
            return;
        }
        int first = 0;
        while (first < expected.size() && first < actual.size() && expected.get(first).equals(actual.get(first)))
        {
            first++;
        }
        final StringBuilder message = new StringBuilder(what).append(": ").append(expected.size()).append(" lines expected, ")
            .append(actual.size()).append(" found; first difference at line ").append(first).append(":\n");
        for (int i = Math.max(0, first - 2); i < first + 3; i++)
        {
            message.append(String.format("  %7d  expected %-60s found %s%n", i, i < expected.size() ? expected.get(i) : "(end)",
                i < actual.size() ? actual.get(i) : "(end)"));
        }
        fail(message.toString());
    }

    /**
     * Assert two sets of files are equal, byte for byte, with a short message.
     *
     * @param what     what is compared.
     * @param expected relative path to content.
     * @param actual   relative path to content.
     */
    public static void assertSameFiles(final String what, final Map<String, String> expected, final Map<String, String> actual)
    {
        assertEquals(expected.keySet(), actual.keySet(), what + ": the files");
        for (final String file : expected.keySet())
        {
            assertSameLines(what + ": " + file, List.of(expected.get(file).split("\n", -1)), List.of(actual.get(file).split("\n", -1)));
        }
    }

    /**
     * @param journal a journal directory, or where one will be.
     * @return the events ingested into it so far.
     */
    public static long ingestedLines(final Path journal)
    {
        if (!JournalDirectory.isJournal(journal))
        {
            return 0;
        }
        return IngestLog.counts(JournalDirectory.open(journal)).events();
    }
}
