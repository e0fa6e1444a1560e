package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

import dev.weir.csv.CsvLineParser;
import dev.weir.files.ResultRow;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --aggregate average|distinct} on the command line: the results CSV and the partitions get an
 * {@code aggregate} column with the right values, a replay gives the run's rows, the aggregation is part
 * of the configuration a journal's checkpoint fixes, and {@code weir check} reads the wider files.
 */
class AggregateOptionTest
{
    @TempDir
    Path dir;

    private Path input;
    private final Map<String, Set<Long>> valuesByWindow = new TreeMap<>();

    @BeforeEach
    void events() throws IOException
    {
        input = dir.resolve("events.csv");
        final List<String> lines = new ArrayList<>(List.of(CsvLineParser.DEFAULT_HEADER));
        final SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 20_000; i++)
        {
            final long time = 1_764_460_800_000L + i * 50L;
            final String key = "k" + random.nextInt(20);
            final long value = random.nextInt(60) - 10;
            lines.add(i + "," + time + "," + key + "," + value);
            final long start = time - Math.floorMod(time, 10_000);
            valuesByWindow.computeIfAbsent(key + "," + start, w -> new HashSet<>()).add(value);
        }
        Files.write(input, lines);
    }

    @Test
    void averageIsTheMeanRoundedDownAndAReplayGivesTheSameRows() throws IOException
    {
        final Path journal = dir.resolve("journal");
        final Path results = dir.resolve("results.csv");
        final Cli run = Cli.run("run", "--input", input.toString(), "--journal", journal.toString(), "--window", "tumbling:10s",
            "--aggregate", "average", "--results", results.toString());
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("aggregate average"), run.out());
        final List<String> rows = Files.readAllLines(results);
        assertEquals(ResultRow.HEADER + ",aggregate", rows.get(0));
        assertTrue(rows.size() > 100, "rows: " + rows.size());
        for (final String row : rows.subList(1, rows.size()))
        {
            final String[] f = row.split(",");
            assertEquals(Math.floorDiv(Long.parseLong(f[4]), Long.parseLong(f[3])), Long.parseLong(f[8]), row);
        }

        final Path replayed = dir.resolve("replayed.csv");
        final Cli replay = Cli.run("replay", "--journal", journal.toString(), "--window", "tumbling:10s", "--aggregate", "average",
            "--results", replayed.toString());
        assertEquals(0, replay.exit(), replay.err());
        assertEquals(rows, Files.readAllLines(replayed), "a replay of the whole journal gives the run's rows");

        final Cli other = Cli.run("run", "--journal", journal.toString(), "--window", "tumbling:10s", "--aggregate", "distinct",
            "--results", dir.resolve("other.csv").toString());
        assertEquals(WeirCommand.USAGE, other.exit(), "the aggregation is part of the checkpointed configuration: " + other.err());
        assertEquals(WeirCommand.USAGE, Cli.run("run", "--input", input.toString(), "--window", "tumbling:10s", "--aggregate", "median",
            "--results", dir.resolve("x.csv").toString()).exit());
    }

    @Test
    void distinctIsCloseToTheExactCountAndPartitionsCarryIt() throws IOException
    {
        final Path out = dir.resolve("out");
        final Cli run = Cli.run("run", "--input", input.toString(), "--window", "tumbling:10s", "--aggregate", "distinct",
            "--output-dir", out.toString(), "--format", "jsonl");
        assertEquals(0, run.exit(), run.err());
        final List<String> rows = Files.readAllLines(out.resolve("date=2025-11-30").resolve("results.jsonl"));
        assertTrue(rows.size() > 100, "rows: " + rows.size());
        double error = 0;
        for (final String row : rows)
        {
            final String key = row.replaceAll(".*\"key\":\"([^\"]+)\".*", "$1");
            final String start = row.replaceAll(".*\"window_start\":(-?\\d+).*", "$1");
            final long estimate = Long.parseLong(row.replaceAll(".*\"aggregate\":(\\d+)}$", "$1"));
            final int exact = valuesByWindow.get(key + "," + start).size();
            error += Math.abs(estimate - exact) / (double)exact;
        }
        assertTrue(error / rows.size() < 0.15, "mean relative error of the distinct estimates: " + error / rows.size());

        final Cli check = Cli.run("check", "--output-dir", out.toString());
        assertEquals(0, check.exit(), check.out() + check.err());
        final Path csvOut = dir.resolve("csv-out");
        assertEquals(0, Cli.run("run", "--input", input.toString(), "--window", "tumbling:10s", "--aggregate", "distinct",
            "--output-dir", csvOut.toString()).exit());
        final Cli checkCsv = Cli.run("check", "--output-dir", csvOut.toString());
        assertEquals(0, checkCsv.exit(), "weir check reads the aggregate column: " + checkCsv.out() + checkCsv.err());
    }
}
