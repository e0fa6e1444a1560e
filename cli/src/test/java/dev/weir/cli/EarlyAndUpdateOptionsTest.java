package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

import dev.weir.files.ResultRow;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --emit updates} and {@code --early-when EXPR} on the command line: rows get a {@code kind} column,
 * the final rows are those of a run without the options, each window has at most one early row (on the
 * event that made the condition true, in the value's unit), a replay gives the run's rows in the same order,
 * partitions carry the kind and {@code weir check} reads them, the options are part of the configuration a
 * checkpoint fixes, and an expression that does not parse exits 2 with its position.
 */
class EarlyAndUpdateOptionsTest
{
    @TempDir
    Path dir;

    private Path input;

    @BeforeEach
    void events() throws IOException
    {
        input = dir.resolve("events.csv");
        final List<String> lines = new ArrayList<>(List.of("event_id,event_time,key,amount"));
        final SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < 5_000; i++)
        {
            final long time = 1_764_460_800_000L + i * 40L - random.nextInt(300);
            lines.add(i + "," + time + ",k" + random.nextInt(10) + "," + (random.nextInt(20_000) - 5_000) / 100 + "." + String.format("%02d",
                random.nextInt(100)));
        }
        Files.write(input, lines);
    }

    @Test
    void updateAndEarlyRowsComeWithAKindAndLeaveTheFinalRowsAsTheyWere() throws IOException
    {
        final Path journal = dir.resolve("journal");
        final Path results = dir.resolve("results.csv");
        final Cli run = Cli.run("run", "--input", input.toString(), "--columns", "key:string,amount:decimal(2)", "--value", "amount",
            "--journal", journal.toString(), "--window", "tumbling:10s", "--out-of-orderness", "300ms", "--emit", "updates",
            "--early-when", "sum >= 1000 or count>30", "--results", results.toString());
        assertEquals(0, run.exit(), run.err());
        final List<String> rows = Files.readAllLines(results);
        assertEquals("window_start,window_end,key,count,sum,min,max,version,kind", rows.get(0));
        final List<String> finals = new ArrayList<>();
        final Set<String> early = new HashSet<>();
        long updates = 0;
        for (final String row : rows.subList(1, rows.size()))
        {
            final String[] f = row.split(",");
            final String window = f[0] + "," + f[2];
            switch (f[8])
            {
                case "update" -> updates++;
                case "early" ->
                {
                    assertTrue(early.add(window), "one early row per window: " + row);
                    assertTrue(new java.math.BigDecimal(f[4]).compareTo(new java.math.BigDecimal("1000")) >= 0 || Long.parseLong(f[3]) > 30, row);
                }
                case "final" -> finals.add(String.join(",", List.of(f).subList(0, 8)));
                default -> throw new AssertionError(row);
            }
        }
        assertEquals(5_000, updates, "an update row per event (each in one window, none late)");
        assertTrue(early.size() > 10, "early rows: " + early.size());

        final Path plain = dir.resolve("plain.csv");
        assertEquals(0, Cli.run("run", "--input", input.toString(), "--columns", "key:string,amount:decimal(2)", "--value", "amount",
            "--window", "tumbling:10s", "--out-of-orderness", "300ms", "--results", plain.toString()).exit());
        final List<String> plainRows = Files.readAllLines(plain);
        assertEquals(ResultRow.HEADER, plainRows.get(0), "no kind column without the options");
        assertEquals(plainRows.subList(1, plainRows.size()), finals, "the final rows are the rows of a run without the options");

        final Path replayed = dir.resolve("replayed.csv");
        final Cli replay = Cli.run("replay", "--journal", journal.toString(), "--value", "amount", "--window", "tumbling:10s",
            "--out-of-orderness", "300ms", "--emit", "updates", "--early-when", "sum>=1000.00 or count>30", "--results", replayed.toString());
        assertEquals(0, replay.exit(), replay.err());
        assertEquals(rows, Files.readAllLines(replayed), "a replay gives the run's rows in the same order");

        final Cli other = Cli.run("run", "--journal", journal.toString(), "--value", "amount", "--window", "tumbling:10s",
            "--out-of-orderness", "300ms", "--emit", "updates", "--results", dir.resolve("other.csv").toString());
        assertEquals(WeirCommand.USAGE, other.exit(), "the early condition is part of the checkpointed configuration: " + other.err());
    }

    @Test
    void partitionsCarryTheKindAndWeirCheckReadsThem() throws IOException
    {
        for (final String format : List.of("csv", "jsonl"))
        {
            final Path out = dir.resolve("out-" + format);
            final Cli run = Cli.run("run", "--input", input.toString(), "--columns", "key:string,amount:decimal(2)", "--value", "amount",
                "--window", "sliding:10s/5s", "--emit", "updates", "--early-when", "max>140", "--output-dir", out.toString(), "--format", format);
            assertEquals(0, run.exit(), run.err());
            final List<String> rows = Files.readAllLines(out.resolve("date=2025-11-30").resolve("results." + format));
            final String kinds = rows.stream().filter(r -> !r.startsWith("window_start,")).map(r -> format.equals("csv") ? r.replaceAll("^([^,]*,){8}([a-z]+).*", "$2")
                : r.replaceAll(".*\"kind\":\"([a-z]+)\".*", "$1")).distinct().sorted().collect(Collectors.joining(","));
            assertEquals("early,final,update", kinds, format + " kinds");
            final Cli check = Cli.run("check", "--output-dir", out.toString());
            assertEquals(0, check.exit(), "weir check reads the kind column: " + check.out() + check.err());
        }
    }

    /**
     * The example: one payment of 100,000 lies in the six windows of {@code sliding:60s/10s} that hold its time,
     * so it crosses {@code sum>=100000} in six windows at once.
     */
    @Test
    void oneCrossingOfSixOverlappingWindowsGivesOneEarlyRowWithEarlyOnceKeyAndSixWithout() throws IOException
    {
        final Path payments = dir.resolve("payments.csv");
        Files.write(payments, List.of("event_id,event_time,key,value", "1,61000,card-7,500", "2,65000,card-7,100000", "3,75000,card-7,700",
            "4,140000,card-9,1"));
        final Path journal = dir.resolve("journal");
        final Path once = dir.resolve("once.csv");
        final Cli run = Cli.run("run", "--input", payments.toString(), "--journal", journal.toString(), "--window", "sliding:60s/10s",
            "--early-when", "sum>=100000", "--early-once", "key", "--results", once.toString());
        assertEquals(0, run.exit(), run.err());
        final List<String> rows = Files.readAllLines(once);
        assertEquals(List.of("10000,70000,card-7,2,100500,500,100000,0,early"), earlyRows(rows), "the first window to cross raises, alone");

        final Path each = dir.resolve("each.csv");
        final Cli without = Cli.run("run", "--input", payments.toString(), "--window", "sliding:60s/10s", "--early-when", "sum>=100000",
            "--results", each.toString());
        assertEquals(0, without.exit(), without.err());
        final List<String> eachRows = Files.readAllLines(each);
        assertEquals(6, earlyRows(eachRows).size(), "one early row per window without the option: " + eachRows);
        assertEquals(finalRows(eachRows), finalRows(rows), "the same final rows");

        final Path replayed = dir.resolve("replayed.csv");
        final Cli replay = Cli.run("replay", "--journal", journal.toString(), "--window", "sliding:60s/10s", "--early-when", "sum>=100000",
            "--early-once", "key", "--results", replayed.toString());
        assertEquals(0, replay.exit(), replay.err());
        assertEquals(rows, Files.readAllLines(replayed), "a replay gives the run's rows");

        final Cli other = Cli.run("run", "--journal", journal.toString(), "--window", "sliding:60s/10s", "--early-when", "sum>=100000",
            "--results", dir.resolve("other.csv").toString());
        assertEquals(WeirCommand.USAGE, other.exit(), "--early-once is part of the checkpointed configuration: " + other.err());
    }

    @Test
    void earlyOnceKeyWithWindowsThatNeverOverlapOrWithoutAConditionExitsTwoBeforeAnythingIsIngested()
    {
        final Path journal = dir.resolve("journal");
        for (final String window : List.of("tumbling:10s", "session:30s", "sliding:10s/10s"))
        {
            final Cli bad = Cli.run("run", "--input", input.toString(), "--journal", journal.toString(), "--window", window, "--early-when",
                "count>=2", "--early-once", "key", "--results", dir.resolve("x.csv").toString());
            assertEquals(WeirCommand.USAGE, bad.exit(), bad.err());
            assertEquals("weir: --early-once key needs overlapping windows: the windows of a key never overlap under " + window.replace("10s", "10000")
                .replace("30s", "30000") + " (only sliding windows whose slide is less than their size do), so each crossing already gives one "
                + "early row", bad.err().strip());
            assertTrue(!Files.exists(journal), "nothing ingested");
        }
        final Cli noCondition = Cli.run("replay", "--journal", journal.toString(), "--window", "sliding:60s/10s", "--early-once", "key",
            "--results", dir.resolve("y.csv").toString());
        assertEquals(WeirCommand.USAGE, noCondition.exit(), noCondition.err());
        assertEquals("weir: --early-once key needs --early-when EXPR", noCondition.err().strip());
        final Cli kafka = Cli.run("run", "--kafka", "127.0.0.1:1", "--topic", "t", "--group", "g", "--output-topic", "o", "--journal",
            journal.toString(), "--window", "tumbling:1s", "--early-when", "count>=2", "--early-once", "key");
        assertEquals(WeirCommand.USAGE, kafka.exit(), kafka.err());
        assertTrue(kafka.err().startsWith("weir: --early-once key needs overlapping windows"), kafka.err());
        final Cli scope = Cli.run("run", "--input", input.toString(), "--window", "sliding:60s/10s", "--early-when", "count>=2",
            "--early-once", "window", "--results", dir.resolve("z.csv").toString());
        assertEquals(WeirCommand.USAGE, scope.exit(), scope.err());
        assertTrue(scope.err().contains("--early-once takes key"), scope.err());
    }

    private static List<String> earlyRows(final List<String> rows)
    {
        return rows.stream().filter(row -> row.endsWith(",early")).collect(Collectors.toList());
    }

    private static List<String> finalRows(final List<String> rows)
    {
        return rows.stream().filter(row -> row.endsWith(",final")).collect(Collectors.toList());
    }

    @Test
    void anExpressionThatDoesNotParseExitsTwoWithItsPosition()
    {
        final Cli bad = Cli.run("run", "--input", input.toString(), "--columns", "key:string,amount:decimal(2)", "--value", "amount",
            "--window", "tumbling:10s", "--early-when", "sum>=10 andd count>1", "--results", dir.resolve("x.csv").toString());
        assertEquals(WeirCommand.USAGE, bad.exit(), bad.err());
        assertTrue(bad.err().contains("at position 9"), bad.err());
        final Cli tooFine = Cli.run("run", "--input", input.toString(), "--columns", "key:string,amount:decimal(2)", "--value", "amount",
            "--window", "tumbling:10s", "--early-when", "sum>=10.001", "--results", dir.resolve("y.csv").toString());
        assertEquals(WeirCommand.USAGE, tooFine.exit(), tooFine.err());
        assertTrue(tooFine.err().contains("more than 2 decimals"), tooFine.err());
        assertEquals(WeirCommand.USAGE, Cli.run("run", "--input", input.toString(), "--window", "tumbling:10s", "--emit", "all",
            "--results", dir.resolve("z.csv").toString()).exit());
    }
}
