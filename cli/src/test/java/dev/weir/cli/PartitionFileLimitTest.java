package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.weir.files.ResultRow;
import dev.weir.journal.EventJournal;
import dev.weir.testsupport.ChildJvm;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Date partitions of 1,000 days (four times the limit), written by child JVMs limited to 256 open files ({@code ulimit -n 256}):
 * {@code weir replay --output-dir} and {@code weir run --output-dir}'s export both complete, with every
 * partition whole and no temporary file left, because at most {@link PartitionedResults#MAX_OPEN}
 * partitions' temporary files are open at a time. Late events re-fire every day's window after all days
 * were written, so each partition's file is reopened and appended to after it was suspended.
 */
@Tag("slow")
class PartitionFileLimitTest
{
    private static final int DAYS = 1_000;
    private static final int OPEN_FILES = 256;
    private static final LocalDate FIRST = LocalDate.of(2020, 1, 1);
    private static final String LATENESS = "100000h"; // more than DAYS days

    @TempDir
    Path dir;

    @Test
    void aThousandDaysUnder256OpenFiles() throws Exception
    {
        final Path journal = dir.resolve("journal");
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            for (int day = 0; day < DAYS; day++)
            {
                final long start = FIRST.plusDays(day).toEpochDay() * 86_400_000L;
                writer.append(3L * day, start + 5_000, "card-1", day);
                writer.append(3L * day + 1, start + 7_000, "card-2", 1);
            }
            for (int day = 0; day < DAYS; day++)
            {
                // late by days, within the allowed lateness: each re-fires its day's window (but the last, not yet fired), back in a
                // partition written long ago
                writer.append(3L * day + 2, FIRST.plusDays(day).toEpochDay() * 86_400_000L + 6_000, "card-1", 1);
            }
        }
        final String limit = child("ulimit", "-n");
        assertEquals(String.valueOf(OPEN_FILES), limit.trim(), "the child runs under the limit");

        final Path replayed = dir.resolve("replayed");
        final String replay = child("weir", "replay", "--journal", journal.toString(), "--window", "tumbling:10s", "--allowed-lateness",
            LATENESS, "--output-dir", replayed.toString());
        assertTrue(replay.lines().anyMatch(l -> l.matches("results +2,999 rows in " + DAYS + " partitions .*")), replay);
        assertPartitions(replayed);

        final Path exported = dir.resolve("exported");
        final String run = child("weir", "run", "--journal", journal.toString(), "--window", "tumbling:10s", "--allowed-lateness",
            LATENESS, "--output-dir", exported.toString());
        assertTrue(run.contains("(2,999 rows in 1,000 date partitions)"), run);
        assertPartitions(exported);
        for (int day = 0; day < DAYS; day++)
        {
            final Path partition = Path.of("date=" + FIRST.plusDays(day)).resolve("results.csv");
            assertEquals(Files.readString(replayed.resolve(partition)), Files.readString(exported.resolve(partition)), partition.toString());
        }
    }

    private static void assertPartitions(final Path out) throws IOException
    {
        final List<Path> files;
        try (Stream<Path> walk = Files.walk(out))
        {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        assertEquals(DAYS, files.size(), "one file a day, no temporary left");
        for (int day = 0; day < DAYS; day += 97)
        {
            final LocalDate date = FIRST.plusDays(day);
            final long start = date.toEpochDay() * 86_400_000L;
            final String window = start + "," + (start + 10_000);
            assertEquals(List.of(ResultRow.HEADER, window + ",card-1,1," + day + "," + day + "," + day + ",0", window + ",card-2,1,1,1,1,0",
                    window + ",card-1,2," + (day + 1) + "," + Math.min(day, 1) + "," + Math.max(day, 1) + ",1"),
                Files.readAllLines(out.resolve("date=" + date).resolve("results.csv")), date.toString());
        }
    }

    /**
     * Run {@code weir ARGS} (a child JVM from the test classpath) or a shell command in bash under
     * {@code ulimit -n 256}, and return what it printed; it must exit 0.
     */
    private String child(final String... args) throws Exception
    {
        final List<String> command = new ArrayList<>();
        if (args[0].equals("weir"))
        {
            command.addAll(ChildJvm.weir("512m", List.of(args).subList(1, args.length).toArray(String[]::new)));
        }
        else
        {
            command.addAll(List.of(args));
        }
        final StringBuilder script = new StringBuilder("ulimit -n " + OPEN_FILES + " && ").append(args[0].equals("weir") ? "exec" : "builtin");
        for (final String word : command)
        {
            script.append(" '").append(word.replace("'", "'\\''")).append('\'');
        }
        final Path log = Files.createTempFile(dir, "child", ".log");
        final Process process = new ProcessBuilder("bash", "-c", script.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the child finished");
        final String output = Files.readString(log, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), output);
        return output;
    }
}
