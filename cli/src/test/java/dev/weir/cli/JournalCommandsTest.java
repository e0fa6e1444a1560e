package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir ingest}, {@code weir run --journal} on an existing journal, {@code --dedupe},
 * {@code weir replay} and {@code weir inspect}, end to end through the command line.
 */
class JournalCommandsTest
{
    private static final List<String> WORKED_EXAMPLE = List.of(
        "event_id,event_time,key,value", "1,5000,a,10", "2,8000,b,20", "3,22000,a,5", "4,3000,c,3", "5,1000,z,99");
    private static final List<String> WORKED_RESULTS = List.of(
        "window_start,window_end,key,count,sum,min,max,version", "0,10000,a,1,10,10,10,0", "0,10000,b,1,20,20,20,0", "20000,30000,a,1,5,5,5,0");

    @TempDir
    Path dir;

    @Test
    void ingestingTheSameFileTwiceAppendsEachLineOnceAndAGrownFileResumes() throws IOException
    {
        final Path input = dir.resolve("events.csv");
        Files.write(input, List.of("event_id,event_time,key,value", "1,1000,a,1", "oops", "2,2000,b,2"));
        final String journal = dir.resolve("journal").toString();

        assertEquals(0, Cli.run("ingest", "--input", input.toString(), "--journal", journal).exit());
        final Cli again = Cli.run("ingest", "--input", input.toString(), "--journal", journal);
        assertEquals(0, again.exit(), again.err());
        assertTrue(again.out().contains("0 events appended"), again.out());

        Files.write(input, List.of("3,3000,a,3", "bad,line"), java.nio.file.StandardOpenOption.APPEND);
        final Cli grown = Cli.run("ingest", "--input", input.toString(), "--journal", journal);
        assertTrue(grown.out().contains("1 events appended"), grown.out());
        assertTrue(grown.out().contains("3 lines were already ingested"), grown.out());
        final List<String> rejected = Files.readAllLines(dir.resolve("events.csv.rejected.csv"));
        assertEquals(3, rejected.size(), "header and the two bad lines, each once: " + rejected);
        assertTrue(rejected.get(1).startsWith("3,") && rejected.get(2).startsWith("6,"), rejected.toString());

        final Cli inspect = Cli.run("inspect", journal);
        assertEquals(0, inspect.exit(), inspect.err());
        assertTrue(inspect.out().contains("3 events, 2 rejected lines"), inspect.out());
        assertTrue(inspect.out().contains("checkpoint   none"), inspect.out());
    }

    @Test
    void runResumesAJournalAndExportsItsOutputJournalAndInspectShowsTheCheckpoint() throws IOException
    {
        final Path input = dir.resolve("events.csv");
        Files.write(input, WORKED_EXAMPLE);
        final String journal = dir.resolve("journal").toString();
        final Path results = dir.resolve("results.csv");
        final String[] run = {"run", "--input", input.toString(), "--journal", journal, "--window", "tumbling:10s",
            "--out-of-orderness", "5s", "--results", results.toString()};

        assertEquals(0, Cli.run(run).exit());
        assertEquals(WORKED_RESULTS, Files.readAllLines(results));
        final Cli second = Cli.run(run);
        assertEquals(0, second.exit(), second.err());
        assertEquals(WORKED_RESULTS, Files.readAllLines(results), "a rerun writes nothing twice");

        final Cli other = Cli.run("run", "--journal", journal, "--window", "tumbling:5s", "--results", dir.resolve("other.csv").toString());
        assertEquals(2, other.exit(), "another configuration on the same journal is refused");
        assertTrue(other.err().contains("weir replay"), other.err());

        final Cli inspect = Cli.run("inspect", journal);
        assertEquals(0, inspect.exit(), inspect.err());
        assertTrue(inspect.out().contains("3 results, 0 late events"), inspect.out());
        assertTrue(inspect.out().contains("input finished"), inspect.out());
        assertTrue(inspect.out().contains("2 late dropped"), inspect.out());
    }

    @Test
    void dedupeIgnoresEventsAppendedTwiceOrThrice() throws IOException
    {
        final List<String> doubled = new ArrayList<>();
        doubled.add(WORKED_EXAMPLE.get(0));
        for (int i = 1; i < WORKED_EXAMPLE.size(); i++)
        {
            doubled.add(WORKED_EXAMPLE.get(i));
            doubled.add(WORKED_EXAMPLE.get(i));
            if (i % 2 == 0)
            {
                doubled.add(WORKED_EXAMPLE.get(i));
            }
        }
        final Path input = dir.resolve("doubled.csv");
        Files.write(input, doubled);
        final Path results = dir.resolve("results.csv");
        final Cli cli = Cli.run("run", "--input", input.toString(), "--window", "tumbling:10s", "--out-of-orderness", "5s", "--dedupe",
            "--results", results.toString());
        assertEquals(0, cli.exit(), cli.err());
        assertEquals(WORKED_RESULTS, Files.readAllLines(results));
        // 7 extra copies: each is either recognised as a duplicate or, once its id was forgotten because
        // its window can no longer change, dropped as late (the 2 late originals are dropped too)
        final java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?s)\nlate dropped +(\\d+)\n.*\nduplicates +(\\d+) ignored\n").matcher(cli.out());
        assertTrue(m.find(), cli.out());
        assertEquals(9, Integer.parseInt(m.group(1)) + Integer.parseInt(m.group(2)), cli.out());
    }

    @Test
    void replayOverwritesItsResultsAtomicallyWithAnyConfiguration() throws IOException
    {
        final Path input = dir.resolve("events.csv");
        Files.write(input, WORKED_EXAMPLE);
        final String journal = dir.resolve("journal").toString();
        assertEquals(0, Cli.run("ingest", "--input", input.toString(), "--journal", journal).exit());
        final Path results = dir.resolve("replay.csv");
        Files.writeString(results, "stale content\n");

        final Cli replay = Cli.run("replay", "--journal", journal, "--window", "tumbling:10s", "--out-of-orderness", "5s",
            "--results", results.toString());
        assertEquals(0, replay.exit(), replay.err());
        assertEquals(WORKED_RESULTS, Files.readAllLines(results));
        final Cli twice = Cli.run("replay", "--journal", journal, "--window", "tumbling:10s", "--out-of-orderness", "5s",
            "--results", results.toString());
        assertEquals(0, twice.exit());
        assertEquals(WORKED_RESULTS, Files.readAllLines(results), "rerunnable: same bytes");

        final Cli wide = Cli.run("replay", "--journal", journal, "--window", "tumbling:1m", "--results", results.toString());
        assertEquals(0, wide.exit());
        assertEquals(List.of("window_start,window_end,key,count,sum,min,max,version", "0,60000,a,2,15,5,10,0", "0,60000,b,1,20,20,20,0",
            "0,60000,c,1,3,3,3,0", "0,60000,z,1,99,99,99,0"), Files.readAllLines(results));
        assertEquals(2, Cli.run("replay", "--journal", dir.resolve("nothing").toString(), "--window", "tumbling:1m",
            "--results", results.toString()).exit());
    }
}
