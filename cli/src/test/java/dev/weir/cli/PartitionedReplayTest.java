package dev.weir.cli;

import static dev.weir.cli.PartitionReplays.part;
import static dev.weir.cli.PartitionReplays.replay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import dev.weir.files.ResultRow;
import dev.weir.journal.EventJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --output-dir}: results in date partitions. A rerun of {@code weir replay} rewrites them whole with
 * the same bytes; a replay of one day ({@code --days}) with another window changes that day's partition and no other;
 * {@code weir run} exports its output journal the same way.
 */
class PartitionedReplayTest
{
    private static final long DAY = 86_400_000L;
    private static final long NOV_1 = 1_793_491_200_000L; // 2026-11-01T00:00:00Z

    @TempDir
    Path dir;

    @Test
    void aRerunIsByteIdenticalAndAOneDayReplayChangesOnlyThatDay() throws IOException
    {
        final Path journal = dir.resolve("journal");
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            final SplittableRandom random = new SplittableRandom(17);
            for (int day = 0; day < 3; day++)
            {
                for (int i = 0; i < 2_000; i++)
                {
                    writer.append(day * 10_000L + i, NOV_1 + day * DAY + i * 40_000L, "card-" + random.nextInt(20), random.nextInt(10_000));
                }
            }
        }
        final Path out = dir.resolve("out");
        assertEquals(0, replay(journal, out, "--window", "tumbling:1h").exit());
        final List<Path> days = List.of(part(out, "2026-11-01"), part(out, "2026-11-02"), part(out, "2026-11-03"));
        final byte[][] first = read(days);
        assertTrue(Files.readAllLines(days.get(0)).get(0).equals(ResultRow.HEADER));
        assertTrue(Files.readAllLines(days.get(1)).size() > 20);

        assertEquals(0, replay(journal, out, "--window", "tumbling:1h").exit());
        final byte[][] again = read(days);
        for (int d = 0; d < days.size(); d++)
        {
            assertArrayEquals(first[d], again[d], "rerun, " + days.get(d));
        }

        final Cli oneDay = replay(journal, out, "--window", "tumbling:2h", "--days", "2026-11-02");
        assertEquals(0, oneDay.exit(), oneDay.err());
        assertTrue(oneDay.out().contains("in 1 partitions"), oneDay.out());
        final byte[][] after = read(days);
        assertArrayEquals(first[0], after[0], "day 0 untouched");
        assertFalse(Arrays.equals(first[1], after[1]), "day 1 rewritten with 2 h windows");
        assertArrayEquals(first[2], after[2], "day 2 untouched");
        assertTrue(Files.readAllLines(days.get(1)).stream().skip(1).allMatch(l -> {
            final String[] f = l.split(",");
            return Long.parseLong(f[1]) - Long.parseLong(f[0]) == 7_200_000L;
        }), "day 1 holds only the new windows (overwritten, not appended)");
    }

    @Test
    void jsonLinesAndUsageErrors() throws IOException
    {
        final Path journal = dir.resolve("journal");
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            writer.append(1, NOV_1 + 5_000, "card-1", 250);
            writer.append(2, NOV_1 + 7_000, "card-1", 750);
        }
        final Path out = dir.resolve("json");
        assertEquals(0, replay(journal, out, "--window", "tumbling:10s", "--format", "jsonl").exit());
        assertEquals(List.of("{\"window_start\":" + NOV_1 + ",\"window_end\":" + (NOV_1 + 10_000)
                + ",\"key\":\"card-1\",\"count\":2,\"sum\":1000,\"min\":250,\"max\":750,\"version\":0}"),
            Files.readAllLines(out.resolve("date=2026-11-01").resolve("results.jsonl")));

        final Cli both = Cli.run("replay", "--journal", journal.toString(), "--window", "tumbling:10s", "--results",
            dir.resolve("r.csv").toString(), "--output-dir", out.toString());
        assertEquals(2, both.exit());
        assertTrue(both.err().contains("exactly one of --results FILE and --output-dir DIR"), both.err());
        final Cli badFormat = replay(journal, out, "--window", "tumbling:10s", "--format", "xml");
        assertEquals(2, badFormat.exit());
    }

    @Test
    void weirRunExportsItsOutputJournalAsPartitions() throws IOException
    {
        final Path input = dir.resolve("events.csv");
        Files.write(input, List.of("event_id,event_time,key,value", "1," + (NOV_1 + 5_000) + ",card-1,250",
            "2," + (NOV_1 + DAY + 5_000) + ",card-2,300", "3," + (NOV_1 + DAY + 6_000) + ",card-2,100", "not,a,line"));
        final Path out = dir.resolve("run-out");
        final Cli run = Cli.run("run", "--input", input.toString(), "--journal", dir.resolve("run-journal").toString(),
            "--window", "tumbling:10s", "--output-dir", out.toString());
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("(2 rows in 2 date partitions)"), run.out());
        assertEquals(List.of(ResultRow.HEADER, NOV_1 + "," + (NOV_1 + 10_000) + ",card-1,1,250,250,250,0"),
            Files.readAllLines(part(out, "2026-11-01")));
        assertEquals(List.of(ResultRow.HEADER, (NOV_1 + DAY) + "," + (NOV_1 + DAY + 10_000) + ",card-2,2,400,100,300,0"),
            Files.readAllLines(part(out, "2026-11-02")));
        assertEquals(2, Files.readAllLines(out.resolve("rejected.csv")).size(), "header and the bad line");
    }


    private static byte[][] read(final List<Path> files) throws IOException
    {
        final byte[][] bytes = new byte[files.size()][];
        for (int i = 0; i < files.size(); i++)
        {
            bytes[i] = Files.readAllBytes(files.get(i));
        }
        return bytes;
    }
}
