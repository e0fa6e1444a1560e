package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mistakes {@code weir run} catches or says: a duration without a unit is refused, naming the flag and the fix;
 * sliding windows whose slide exceeds their size are said at the start and the events in their gaps counted; a run
 * with more than 1% late events ends with the share and the out-of-orderness that would have kept 99% on time; and
 * the summary is a table of one {@code name  value} line each.
 */
class RunMistakesTest
{
    private static final String UNITS = "a duration needs a unit: write %sms or %ss (units: ms, s, m, h, d)";

    @TempDir
    Path dir;

    @Test
    void aDurationWithoutAUnitIsRefusedNamingTheFlagAndTheFix() throws IOException
    {
        final String in = inOrder().toString();
        final String res = dir.resolve("r.csv").toString();
        assertRefused(String.format("weir: --window tumbling:10: " + UNITS, 10, 10),
            Cli.run("run", "--input", in, "--window", "tumbling:10", "--results", res));
        assertRefused(String.format("weir: --window sliding:10s/2: " + UNITS, 2, 2),
            Cli.run("run", "--input", in, "--window", "sliding:10s/2", "--results", res));
        assertRefused(String.format("weir: --out-of-orderness 500: " + UNITS, 500, 500),
            Cli.run("run", "--input", in, "--window", "tumbling:1s", "--out-of-orderness", "500", "--results", res));
        assertRefused(String.format("weir: --allowed-lateness 1000: " + UNITS, 1000, 1000),
            Cli.run("run", "--input", in, "--window", "tumbling:1s", "--allowed-lateness", "1000", "--results", res));
        assertRefused(String.format("weir: --idle-timeout 5: " + UNITS, 5, 5),
            Cli.run("run", "--input", in, "--window", "tumbling:1s", "--idle-timeout", "5", "--results", res));
        assertRefused(String.format("weir: --keep 90: " + UNITS, 90, 90),
            Cli.run("retain", "--journal", dir.resolve("j").toString(), "--keep", "90"));
        assertFalse(Files.exists(Path.of(res)), "nothing written");

        final Cli zero = Cli.run("run", "--input", in, "--window", "tumbling:1s", "--out-of-orderness", "0", "--allowed-lateness", "0",
            "--results", res);
        assertEquals(0, zero.exit(), "0 needs no unit: " + zero.err());
    }

    @Test
    void slidingWindowsWithGapsAreSaidAtTheStartAndTheEventsInTheGapsCounted() throws IOException
    {
        final List<String> lines = new ArrayList<>(List.of("event_id,event_time,key,value"));
        for (int i = 0; i < 120; i++)
        {
            lines.add(i + "," + i * 1_000 + ",a,1"); // one event a second for two minutes
        }
        final Path input = write("gaps.csv", lines);
        final Cli run = Cli.run("run", "--input", input.toString(), "--window", "sliding:10s/60s", "--results", dir.resolve("r.csv").toString());
        assertEquals(0, run.exit(), run.err());
        assertEquals(List.of("weir: warning: sliding:10s/1m: slide is greater than size; events in 50s of every 1m fall in no window "
            + "and are counted, not aggregated"), warnings(run), run.err());
        assertTrue(run.out().lines().anyMatch(l -> l.equals("in no window    100")), run.out());
        assertTrue(run.out().lines().anyMatch(l -> l.equals("windows fired   2")), run.out());

        final Cli overlapping = Cli.run("run", "--input", input.toString(), "--window", "sliding:60s/10s", "--results", dir.resolve("o.csv").toString());
        assertEquals(0, overlapping.exit(), overlapping.err());
        assertEquals(List.of(), warnings(overlapping), "windows without gaps: nothing to say");
    }

    @Test
    void aRunWithMoreThanOnePercentLateEventsSaysSoWithTheOutOfOrdernessThatKeeps99PercentOnTime() throws IOException
    {
        // 100 events 100 ms apart; the 51st comes 1.5 s behind the newest, the 81st 3.5 s: both late in 1 s windows
        final List<String> lines = new ArrayList<>(List.of("event_id,event_time,key,value"));
        for (int i = 0; i < 100; i++)
        {
            final long newest = 100_000L + (i - 1) * 100L;
            lines.add(i + "," + (i == 50 ? newest - 1_500 : i == 80 ? newest - 3_500 : 100_000L + i * 100L) + ",a,1");
        }
        final Path input = write("late.csv", lines);
        final Cli run = Cli.run("run", "--input", input.toString(), "--window", "tumbling:1s", "--results", dir.resolve("r.csv").toString());
        assertEquals(0, run.exit(), run.err());
        assertEquals(List.of("weir: warning: 2.0% of events were late (2 of 100); --out-of-orderness 2s would have kept 99% on time"),
            warnings(run), run.err());

        final Cli kept = Cli.run("run", "--input", input.toString(), "--window", "tumbling:1s", "--out-of-orderness", "2s",
            "--results", dir.resolve("k.csv").toString());
        assertEquals(0, kept.exit(), kept.err());
        assertTrue(kept.out().lines().anyMatch(l -> l.equals("late dropped    1")), kept.out());
        assertEquals(List.of(), warnings(kept), "1 late event of 100 is not more than 1%");
    }

    @Test
    void theSummaryIsATableOfOneNameAndValueALine() throws IOException
    {
        final Path input = inOrder();
        final Path results = dir.resolve("r.csv");
        final Cli run = Cli.run("run", "--input", input.toString(), "--window", "tumbling:1s", "--out-of-orderness", "500ms",
            "--results", results.toString());
        assertEquals(0, run.exit(), run.err());
        final List<String> names = new ArrayList<>();
        for (final String line : run.out().lines().toList())
        {
            assertTrue(line.matches("[a-z/ ]{14}  \\S.*"), "a name padded to 16 characters, then its value: '" + line + "'");
            names.add(line.substring(0, 16).trim());
        }
        assertEquals(List.of("input", "journal", "window", "events", "events/s", "duration", "offsets", "windows fired", "late dropped",
            "late to output", "in no window", "checkpoints", "results"), names);
        assertTrue(run.out().startsWith("input           " + input + ": 10 lines read, 10 events ingested, 0 rejected\n"), run.out());
        assertTrue(run.out().contains("\nwindow          tumbling:1s, out-of-orderness 500ms, allowed lateness 0, late drop\n"), run.out());
        assertTrue(run.out().contains("\nevents          10\n"), run.out());
        assertTrue(run.out().contains("\nresults         " + results + " (10 rows)\n"), run.out());
    }

    private static void assertRefused(final String message, final Cli cli)
    {
        assertEquals(2, cli.exit(), cli.out() + cli.err());
        assertEquals(message, cli.err().lines().findFirst().orElse(""), cli.err());
        assertEquals(1, cli.err().lines().filter(l -> l.startsWith("weir: ")).count(), cli.err());
    }

    private static List<String> warnings(final Cli cli)
    {
        return cli.err().lines().filter(l -> l.startsWith("weir: warning: ")).toList();
    }

    /** @return ten events a second apart, one window each. */
    private Path inOrder() throws IOException
    {
        final List<String> lines = new ArrayList<>(List.of("event_id,event_time,key,value"));
        for (int i = 0; i < 10; i++)
        {
            lines.add(i + "," + i * 1_000 + ",a,1");
        }
        return write("in-order.csv", lines);
    }

    private Path write(final String name, final List<String> lines) throws IOException
    {
        final Path file = dir.resolve(name);
        Files.write(file, lines);
        return file;
    }
}
