package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.weir.csv.CsvLineParser;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir check} on the output of a real {@code weir run}: every check passes on clean data and the
 * command exits 0; a gap, a duplicated row and stale data each fail their check with exit code 3 and a
 * table that says which; thresholds come from flags or a config file (flags win); bad flags exit 2. Without
 * {@code --pipeline}, the late check covers every pipeline of the journal, and a journal no pipeline has processed fails it.
 * Partitions of named aggregates, with empty values, are checked as well.
 */
class CheckCommandTest
{
    @TempDir
    Path dir;

    private Path journal;
    private Path out;

    @BeforeEach
    void runOverThreeDays() throws IOException
    {
        final Path input = dir.resolve("events.csv");
        final List<String> lines = new ArrayList<>(List.of(CsvLineParser.DEFAULT_HEADER));
        final long start = 1_764_460_800_000L; // 2025-11-30T00:00:00Z
        for (int i = 0; i < 3_000; i++)
        {
            lines.add(i + "," + (start + i * 86_400L) + ",k" + i % 7 + "," + i); // 3,000 events over about 3 days
        }
        lines.add("broken line");
        Files.write(input, lines);
        journal = dir.resolve("journal");
        out = dir.resolve("out");
        final Cli run = Cli.run("run", "--input", input.toString(), "--journal", journal.toString(), "--window", "tumbling:1h",
            "--output-dir", out.toString());
        assertEquals(0, run.exit(), run.err());
    }

    @Test
    void cleanDataPassesEveryCheck()
    {
        final Cli check = Cli.run("check", "--journal", journal.toString(), "--output-dir", out.toString(), "--max-staleness", "1h",
            "--now", "2025-12-03T00:30:00Z");
        assertEquals(0, check.exit(), check.out() + check.err());
        assertTrue(check.out().contains("2025-11-30"), check.out());
        assertTrue(check.out().contains("All checks passed."), check.out());
        for (final String name : List.of("rows", "unique", "rejected", "late", "duplicates", "freshness", "gaps"))
        {
            assertTrue(check.out().lines().anyMatch(l -> l.startsWith(name + " ") && l.contains("PASS")), name + " passes:\n" + check.out());
        }
    }

    @Test
    void aGapADuplicatedRowAndStaleDataEachFailTheirCheck() throws IOException
    {
        final Path middle = out.resolve("date=2025-12-01").resolve("results.csv");
        final List<String> rows = Files.readAllLines(middle);
        Files.delete(middle);
        Files.delete(middle.getParent());
        final Cli gap = Cli.run("check", "--output-dir", out.toString());
        assertEquals(CheckCommand.FAILED, gap.exit(), gap.out());
        assertTrue(failed(gap, "gaps") && gap.out().contains("no rows for 2025-12-01"), gap.out());
        assertTrue(gap.out().contains("1 check failed."), gap.out());

        Files.createDirectories(middle.getParent());
        rows.add(rows.get(1)); // appended twice: a non-idempotent writer's mistake
        Files.write(middle, rows);
        final Cli duplicated = Cli.run("check", "--output-dir", out.toString());
        assertEquals(CheckCommand.FAILED, duplicated.exit(), duplicated.out());
        assertTrue(failed(duplicated, "unique") && !failed(duplicated, "gaps"), duplicated.out());

        final Cli stale = Cli.run("check", "--journal", journal.toString(), "--max-staleness", "1h", "--now", "2025-12-05T00:00:00Z");
        assertEquals(CheckCommand.FAILED, stale.exit(), stale.out());
        assertTrue(failed(stale, "freshness"), stale.out());
    }

    @Test
    void partitionsOfNamedAggregatesWithEmptyValuesAreChecked() throws IOException
    {
        final Path named = dir.resolve("named");
        final Cli run = Cli.run("run", "--journal", journal.toString(), "--pipeline", "named", "--window", "tumbling:1h", "--output-dir",
            named.toString(), "--aggregates", "n=count(),big=max(value) filter (where value > 2990)");
        assertEquals(0, run.exit(), run.err());
        final Path first = named.resolve("date=2025-11-30").resolve("results.csv");
        final List<String> rows = Files.readAllLines(first);
        assertEquals("window_start,window_end,key,n,big,version", rows.get(0));
        assertTrue(rows.get(1).endsWith(",,0"), "no value over 2990 on the first day: " + rows.get(1));

        final Cli clean = Cli.run("check", "--output-dir", named.toString());
        assertEquals(0, clean.exit(), clean.out() + clean.err());
        assertTrue(clean.out().lines().anyMatch(l -> l.startsWith("unique ") && l.contains("PASS")), clean.out());
        rows.add(rows.get(1)); // appended twice
        Files.write(first, rows);
        final Cli repeated = Cli.run("check", "--output-dir", named.toString());
        assertEquals(CheckCommand.FAILED, repeated.exit(), repeated.out() + repeated.err());
        assertTrue(failed(repeated, "unique") && repeated.out().contains("1 duplicate rows"), repeated.out());
    }

    @Test
    void thresholdsComeFromAConfigFileAndFlagsWin() throws IOException
    {
        // 1 rejected line of 3,001 is 0.033%: over a 0.01% limit from the file, under a 1% limit from a flag
        final Path config = dir.resolve("check.properties");
        Files.write(config, List.of("# weir check thresholds", "max-rejected-rate=0.01%", "min-rows=1"));
        final Cli strict = Cli.run("check", "--journal", journal.toString(), "--config", config.toString());
        assertEquals(CheckCommand.FAILED, strict.exit(), strict.out());
        assertTrue(failed(strict, "rejected"), strict.out());
        final Cli overridden = Cli.run("check", "--journal", journal.toString(), "--config", config.toString(), "--max-rejected-rate", "1%");
        assertEquals(0, overridden.exit(), overridden.out());
    }

    @Test
    void badFlagsAndConfigsExitWithCode2()
    {
        assertEquals(WeirCommand.USAGE, Cli.run("check").exit());
        assertEquals(WeirCommand.USAGE, Cli.run("check", "--journal", journal.toString(), "--max-late-rate", "7").exit());
        assertEquals(WeirCommand.USAGE, Cli.run("check", "--output-dir", out.toString(), "--from-date", "yesterday").exit());
        assertEquals(WeirCommand.USAGE, Cli.run("check", "--journal", dir.resolve("nothing").toString()).exit());
        assertEquals(WeirCommand.USAGE, Cli.run("check", "--journal", journal.toString(), "--now", "noon").exit());
        assertEquals(WeirCommand.USAGE, Cli.run("check", "--jdbc-url", "jdbc:mysql://127.0.0.1/x").exit());
        assertEquals(WeirCommand.USAGE, Cli.run("check", "--journal", journal.toString(), "--jdbc-table", "t").exit());
    }

    @Test
    void anUnknownConfigSettingIsRefused() throws IOException
    {
        final Path config = dir.resolve("typo.properties");
        Files.write(config, List.of("max-rejected-rat=0.5"));
        final Cli refused = Cli.run("check", "--journal", journal.toString(), "--config", config.toString());
        assertEquals(WeirCommand.USAGE, refused.exit());
        assertTrue(refused.err().contains("unknown setting 'max-rejected-rat'"), refused.err());
    }

    @Test
    void withoutPipelineEveryPipelineOfTheJournalIsCheckedAndOneThatFailsFailsTheGate() throws IOException
    {
        final Path named = LateSpendJournal.create(Files.createDirectories(dir.resolve("named")));
        final Cli all = Cli.run("check", "--journal", named.toString());
        assertEquals(CheckCommand.FAILED, all.exit(), "the default pipeline never ran; spend has 41% of its events late:\n" + all.out());
        assertTrue(failed(all, "late:spend") && all.out().contains("41.000% (41 of 100 events)"), all.out());
        assertTrue(all.out().lines().anyMatch(l -> l.startsWith("late:fees ") && l.contains("PASS")), all.out());
        assertFalse(all.out().lines().anyMatch(l -> l.startsWith("late ")), "no row for the default pipeline, which never ran:\n" + all.out());

        final Cli one = Cli.run("check", "--journal", named.toString(), "--pipeline", "fees");
        assertEquals(0, one.exit(), one.out());
        assertFalse(one.out().contains("late:spend"), one.out());
    }

    @Test
    void aJournalNoPipelineHasProcessedFailsTheLateCheck() throws IOException
    {
        final Path ingested = dir.resolve("ingested");
        assertEquals(0, Cli.run("ingest", "--input", dir.resolve("events.csv").toString(), "--journal", ingested.toString()).exit());
        final Cli check = Cli.run("check", "--journal", ingested.toString(), "--max-rejected-rate", "1%");
        assertEquals(CheckCommand.FAILED, check.exit(), check.out());
        assertTrue(failed(check, "late") && check.out().contains("no pipeline has processed the journal"), check.out());
        assertFalse(check.out().contains("All checks passed"), check.out());
    }

    @Test
    void everyCommandsHelpPrintsCleanly()
    {
        for (final String command : List.of("run", "ingest", "replay", "inspect", "stat", "check", "demo"))
        {
            final Cli help = Cli.run(command, "--help");
            assertEquals(0, help.exit(), command);
            assertTrue(help.out().startsWith("Usage: weir " + command), help.out());
            assertTrue(!help.err().contains("WARN") && !help.out().contains("WARN"), command + " --help warns:\n" + help.err());
        }
    }

    private static boolean failed(final Cli check, final String name)
    {
        return check.out().lines().anyMatch(l -> l.startsWith(name + " ") && l.contains("FAIL"));
    }
}
