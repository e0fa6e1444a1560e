package dev.weir.files;

import java.io.BufferedWriter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import dev.weir.engine.fired.FiredResult;
import dev.weir.journal.files.AtomicTextFile;

/**
 * Rows per second of writing results to a file, the text way (a {@link ResultRow} String per row through a
 * UTF-8 BufferedWriter, what the CLI did before) against {@link RowWriter} (bytes into the file's buffer),
 * CSV and JSON lines, on seeded rows of the shape of `weir replay` tumbling 1 s (10 k keys). Figures are by
 * the thread's CPU time (and wall time), so they hold on a shared machine. Not a test: run it with
 * {@code java -cp cli/target/weir.jar:files/target/test-classes dev.weir.files.RowWriterThroughput [ROWS] [ROUNDS]}.
 */
public final class RowWriterThroughput
{
    private RowWriterThroughput()
    {
    }

    /**
     * @param args rows per round (default 6,322,785) and rounds (default 3).
     * @throws IOException if the temporary file cannot be written.
     */
    public static void main(final String[] args) throws IOException
    {
        final int rows = args.length > 0 ? Integer.parseInt(args[0]) : 6_322_785;
        final int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        final ResultRow format = new ResultRow(KeyColumns.single("key", id -> "k" + id), "value", 0, false, 0);
        final Path dir = Files.createTempDirectory("row-writer");
        final FiredResult r = new FiredResult();
        for (int round = 0; round < rounds; round++)
        {
            for (final boolean json : new boolean[] {false, true})
            {
                report("text " + (json ? "json" : "csv "), rows, () -> text(format, dir.resolve("text.out"), r, rows, json));
                report("bytes " + (json ? "json" : "csv "), rows, () -> bytes(format, dir.resolve("bytes.out"), r, rows, json));
            }
        }
        Files.deleteIfExists(dir.resolve("text.out"));
        Files.deleteIfExists(dir.resolve("bytes.out"));
        Files.delete(dir);
    }

    private interface Job
    {
        void run() throws IOException;
    }

    private static void report(final String what, final int rows, final Job job) throws IOException
    {
        final java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final long cpu = threads.getCurrentThreadCpuTime();
        final long wall = System.nanoTime();
        job.run();
        final double cpuSeconds = (threads.getCurrentThreadCpuTime() - cpu) / 1e9;
        final double wallSeconds = (System.nanoTime() - wall) / 1e9;
        System.out.printf("%s %,d rows: %.2f M rows/s by CPU (%.3f s), %.2f M rows/s by wall (%.3f s)%n",
            what, rows, rows / cpuSeconds / 1e6, cpuSeconds, rows / wallSeconds / 1e6, wallSeconds);
    }

    private static void fill(final FiredResult r, final Random random, final int i)
    {
        final long start = 1_700_000_000_000L + (i / 6_323) * 1000L;
        final long value = 1 + random.nextInt(999);
        r.window(start, start + 1000).keyId(random.nextInt(10_000)).count(1 + random.nextInt(3)).sum(value * 2).min(value).max(value + 17)
            .version(0);
    }

    private static void text(final ResultRow format, final Path file, final FiredResult r, final int rows, final boolean json) throws IOException
    {
        final Random random = new Random(18);
        final StringBuilder row = new StringBuilder(128);
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8))
        {
            for (int i = 0; i < rows; i++)
            {
                fill(r, random, i);
                row.setLength(0);
                out.write((json ? format.json(row, r) : format.csv(row, r)).toString());
                out.write('\n');
            }
        }
    }

    private static void bytes(final ResultRow format, final Path file, final FiredResult r, final int rows, final boolean json)
    {
        final Random random = new Random(18);
        final RowWriter writer = format.writer();
        try (AtomicTextFile out = new AtomicTextFile(file))
        {
            for (int i = 0; i < rows; i++)
            {
                fill(r, random, i);
                if (json)
                {
                    writer.json(out.row(), r);
                }
                else
                {
                    writer.csv(out.row(), r);
                }
            }
            out.suspend(); // written, not committed
        }
    }
}
