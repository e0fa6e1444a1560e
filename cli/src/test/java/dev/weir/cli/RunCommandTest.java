package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.weir.journal.JournalDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunCommandTest
{
    @TempDir
    Path dir;

    @Test
    void theWorkedExampleOfTheDesignGivesExactlyItsRowsThroughTheJournal() throws IOException
    {
        final Path input = write("events.csv",
            "event_id,event_time,key,value",
            "1,5000,a,10",
            "2,8000,b,20",
            "3,22000,a,5",
            "4,3000,c,3",
            "5,1000,z,99");
        final Path results = dir.resolve("results.csv");
        final Path journal = dir.resolve("journal");

        final Cli cli = Cli.run("run", "--input", input.toString(), "--window", "tumbling:10s", "--out-of-orderness", "5s",
            "--allowed-lateness", "0", "--late", "drop", "--results", results.toString(), "--journal", journal.toString());

        assertEquals(0, cli.exit(), cli.err());
        assertEquals(List.of(
            "window_start,window_end,key,count,sum,min,max,version",
            "0,10000,a,1,10,10,10,0",
            "0,10000,b,1,20,20,20,0",
            "20000,30000,a,1,5,5,5,0"), Files.readAllLines(results));
        assertTrue(cli.out().contains("\nlate dropped    2\n"), cli.out());
        assertTrue(cli.out().contains("\nwindows fired   3\n"), cli.out());
        assertEquals(5, JournalContents.events(journal).size(), "all five events are in the journal");
    }

    @Test
    void everyMalformedLineIsRejectedWithItsLineNumberAndReasonAndEveryOtherLineIsIngested() throws IOException
    {
        final Path input = write("events.csv",
            "event_id,event_time,key,value",
            "1,1000,a,10",
            "2,1000,a",                 // 3: too few fields
            "3,1000,a,10,99",           // 4: too many fields
            "x4,1000,a,10",             // 5: id not a number
            "5,soon,a,10",              // 6: time not a number
            "6,-1,a,10",                // 7: negative time
            "7,1000,a b,10",            // 8: bad key characters
            "8,1000,,10",               // 9: empty key
            "9,1000," + "k".repeat(65) + ",10", // 10: key too long
            "10,1000,a,ten",            // 11: value not a number
            "11,1000,a,99999999999999999999", // 12: value out of range
            "",                         // 13: empty line
            "12,2000,b-_9,-7");         // 14: fine
        final Path results = dir.resolve("out/results.csv");
        final Path journal = dir.resolve("journal");

        final Cli cli = Cli.run("run", "--input", input.toString(), "--window", "tumbling:1s", "--results", results.toString(),
            "--journal", journal.toString());

        assertEquals(0, cli.exit(), cli.err());
        final List<String> rejected = Files.readAllLines(dir.resolve("out/results.csv.rejected.csv"));
        assertEquals("line,reason,content", rejected.get(0));
        final List<Long> rejectedLines = new ArrayList<>();
        for (final String row : rejected.subList(1, rejected.size()))
        {
            rejectedLines.add(Long.parseLong(row.substring(0, row.indexOf(','))));
        }
        assertEquals(List.of(3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L), rejectedLines);
        assertTrue(rejected.get(1).contains("expected 4 fields"), rejected.get(1));
        assertTrue(rejected.get(5).contains("negative"), rejected.get(5));
        assertTrue(rejected.get(6).contains("characters outside"), rejected.get(6));
        assertTrue(rejected.get(7).contains("empty key"), rejected.get(7));
        assertTrue(rejected.get(8).contains("longer than 64"), rejected.get(8));
        assertTrue(rejected.get(9).contains("value is not"), rejected.get(9));
        assertTrue(rejected.get(11).contains("empty line"), rejected.get(11));

        // Every input line is either in the journal or in the rejected file, exactly once.
        final List<String> ingested = JournalContents.events(journal);
        assertEquals(List.of("1,1000,a,10", "12,2000,b-_9,-7"), ingested);
        final Set<Long> accounted = new HashSet<>(rejectedLines);
        accounted.add(2L);
        accounted.add(14L);
        assertEquals(13, accounted.size(), "lines 2..14 all accounted for");
        assertTrue(cli.out().contains("11 rejected"), cli.out());
    }

    @Test
    void everyThreadLayoutGivesTheSameRows() throws IOException
    {
        final List<String> lines = new java.util.ArrayList<>(List.of("event_id,event_time,key,value"));
        final java.util.SplittableRandom random = new java.util.SplittableRandom(5);
        for (int i = 0; i < 30_000; i++)
        {
            lines.add(i + "," + (i * 7L - random.nextInt(300)) + ",k" + random.nextInt(50) + "," + random.nextInt(1_000));
        }
        final Path input = write("layouts.csv", lines.toArray(String[]::new));
        List<String> first = null;
        for (final String layout : List.of("FUSED", "STAGED", "INLINE"))
        {
            final Path results = dir.resolve(layout + ".csv");
            final Cli run = Cli.run("run", "--input", input.toString(), "--window", "sliding:2s/500ms", "--out-of-orderness", "200ms",
                "--layout", layout.toLowerCase(java.util.Locale.ROOT), "--results", results.toString());
            assertEquals(0, run.exit(), layout + ": " + run.err());
            final List<String> rows = Files.readAllLines(results);
            assertTrue(rows.size() > 1_000, layout + " rows: " + rows.size());
            if (first == null)
            {
                first = rows;
            }
            assertEquals(first, rows, layout + " gives FUSED's rows, in order");
        }
        assertUsageError(Cli.run("run", "--input", input.toString(), "--window", "tumbling:1s", "--layout", "SIDEWAYS",
            "--results", dir.resolve("x.csv").toString()), "layout");
    }

    @Test
    void usageErrorsPrintOneLineAndExitWithTwo() throws IOException
    {
        final Path input = write("events.csv", "event_id,event_time,key,value", "1,1,a,1");
        final String in = input.toString();
        final String res = dir.resolve("r.csv").toString();
        assertUsageError(Cli.run("run", "--input", in, "--window", "tumbling:10s", "--results", res, "--frobnicate"), "frobnicate");
        assertUsageError(Cli.run("run", "--input", dir.resolve("missing.csv").toString(), "--window", "tumbling:10s", "--results", res), "not found");
        assertUsageError(Cli.run("run", "--input", in, "--window", "tumbling:10s", "--out-of-orderness", "5 parsecs", "--results", res), "duration");
        assertUsageError(Cli.run("run", "--input", in, "--window", "tumbling:10x", "--results", res), "unit");
        assertUsageError(Cli.run("run", "--input", in, "--window", "tumbling:0s", "--results", res), "greater than zero");
        assertUsageError(Cli.run("run", "--input", in, "--window", "sliding:10s/0", "--results", res), "greater than zero");
        assertUsageError(Cli.run("run", "--input", in, "--window", "sliding:10s", "--results", res), "SIZE/SLIDE");
        assertUsageError(Cli.run("run", "--input", in, "--window", "session:-5s", "--results", res), "greater than zero");
        assertUsageError(Cli.run("run", "--input", in, "--window", "hopping:5s", "--results", res), "window kind");
        assertUsageError(Cli.run("run", "--input", in, "--window", "tumbling:10s", "--late", "keep", "--results", res), "drop");
        assertUsageError(Cli.run("run", "--input", in, "--window", "tumbling:10s", "--late", "side", "--results", res), "--late-output");
        assertUsageError(Cli.run("run", "--input", in, "--window", "tumbling:10s", "--jdbc-url", "jdbc:postgresql://127.0.0.1:1/x"),
            "--jdbc-url needs --journal");
        assertUsageError(Cli.run("run", "--input", in, "--window", "tumbling:10s", "--journal", dir.resolve("j").toString(),
            "--jdbc-url", "jdbc:mysql://127.0.0.1/x"), "PostgreSQL JDBC URL");
        assertUsageError(Cli.run("run", "--input", in, "--window", "tumbling:10s", "--journal", dir.resolve("j").toString()),
            "--results FILE, --output-dir DIR or --jdbc-url URL");
        assertUsageError(Cli.run("run", "--input", in, "--window", "tumbling:10s", "--results", res, "--jdbc-table", "t"), "need --jdbc-url");
        assertFalse(Files.exists(Path.of(res)), "no results file is written on a usage error");
    }

    @Test
    void aForeignJournalDirectoryIsRefusedAndLeftUntouched() throws IOException
    {
        final Path input = write("events.csv", "event_id,event_time,key,value", "1,1,a,1");
        final Path foreign = dir.resolve("home");
        Files.createDirectories(foreign);
        Files.writeString(foreign.resolve("notes.txt"), "mine");

        final Cli cli = Cli.run("run", "--input", input.toString(), "--window", "tumbling:10s",
            "--results", dir.resolve("r.csv").toString(), "--journal", foreign.toString());

        assertEquals(2, cli.exit());
        assertTrue(cli.err().contains("not a Weir journal"), cli.err());
        try (var entries = Files.list(foreign))
        {
            assertEquals(List.of(foreign.resolve("notes.txt")), entries.toList());
        }
        assertEquals("mine", Files.readString(foreign.resolve("notes.txt")));
    }

    @Test
    void aFileWithoutTheHeaderIsRefusedBeforeAnythingIsIngested() throws IOException
    {
        final Path input = write("events.csv", "1,1,a,1");
        final Cli cli = Cli.run("run", "--input", input.toString(), "--window", "tumbling:10s",
            "--results", dir.resolve("r.csv").toString(), "--journal", dir.resolve("j").toString());
        assertEquals(2, cli.exit());
        assertTrue(cli.err().contains("header"), cli.err());
    }

    private static void assertUsageError(final Cli cli, final String mentions)
    {
        assertEquals(2, cli.exit(), cli.err());
        final String first = cli.err().lines().filter(l -> l.startsWith("weir: ")).findFirst().orElse("");
        assertTrue(first.contains(mentions), "expected the error to mention '" + mentions + "': " + cli.err());
        assertEquals(1, cli.err().lines().filter(l -> l.startsWith("weir: ")).count(), cli.err());
    }

    private Path write(final String name, final String... lines) throws IOException
    {
        final Path file = dir.resolve(name);
        Files.write(file, List.of(lines));
        return file;
    }

}
