package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A last line without its line terminator (issue 12, defect 2): {@code weir ingest}, for a file that may
 * still grow, leaves it pending until it is complete; a one-shot {@code weir run --input} (and
 * {@code weir ingest --final}) counts it; and a line taken that way is never silently mixed with what it
 * grew into.
 */
class PartialLastLineTest
{
    private static final String HEADER = "event_id,event_time,key,value\n";

    @TempDir
    Path dir;

    @Test
    void aLineStillBeingWrittenIsLeftPendingAndTakenWholeOnceComplete() throws IOException
    {
        final Path input = dir.resolve("p.csv");
        final String journal = dir.resolve("journal").toString();
        write(input, HEADER + "1,1000,k,12");
        final Cli first = Cli.run("ingest", "--input", input.toString(), "--journal", journal);
        assertEquals(0, first.exit(), first.out() + first.err());
        assertTrue(first.out().contains("Line 2 has no line terminator yet: it was left pending"), first.out());

        append(input, "345\n2,2000,k,1\n");
        final Cli second = Cli.run("ingest", "--input", input.toString(), "--journal", journal);
        assertEquals(0, second.exit(), second.out() + second.err());
        assertTrue(second.out().contains("2 events appended"), second.out());

        final Path results = dir.resolve("r.csv");
        final Cli run = Cli.run("run", "--journal", journal, "--window", "tumbling:10s", "--results", results.toString());
        assertEquals(0, run.exit(), run.out() + run.err());
        assertEquals(List.of("window_start,window_end,key,count,sum,min,max,version", "0,10000,k,2,12346,1,12345,0"),
            Files.readAllLines(results));
    }

    @Test
    void aOneShotRunCountsALastLineWithoutItsNewlineAndSoDoesIngestFinal() throws IOException
    {
        final Path input = dir.resolve("p.csv");
        write(input, HEADER + "1,1000,k,5\n2,2000,k,7");
        final Path results = dir.resolve("r.csv");
        final Cli run = Cli.run("run", "--input", input.toString(), "--window", "tumbling:10s", "--results", results.toString());
        assertEquals(0, run.exit(), run.out() + run.err());
        assertEquals(List.of("window_start,window_end,key,count,sum,min,max,version", "0,10000,k,2,12,5,7,0"), Files.readAllLines(results));

        final String journal = dir.resolve("journal").toString();
        final Cli ingest = Cli.run("ingest", "--input", input.toString(), "--journal", journal, "--final");
        assertEquals(0, ingest.exit(), ingest.out() + ingest.err());
        assertEquals(List.of("1,1000,k,5", "2,2000,k,7"), JournalContents.events(dir.resolve("journal")));
        final Cli again = Cli.run("ingest", "--input", input.toString(), "--journal", journal);
        assertEquals(0, again.exit(), again.out() + again.err());
        assertTrue(again.out().contains("0 events appended"), again.out());
    }

    @Test
    void aLastLineTakenAsCompleteThatGrowsLaterIsRefusedNotMixedIntoASum() throws IOException
    {
        final Path input = dir.resolve("p.csv");
        final String journal = dir.resolve("journal").toString();
        write(input, HEADER + "1,1000,k,12");
        final Cli run = Cli.run("run", "--input", input.toString(), "--journal", journal, "--window", "tumbling:10s",
            "--results", dir.resolve("r.csv").toString());
        assertEquals(0, run.exit(), run.out() + run.err());

        append(input, "\n2,2000,k,1\n"); // the line was complete after all: the file just goes on
        final Cli grew = Cli.run("ingest", "--input", input.toString(), "--journal", journal);
        assertEquals(0, grew.exit(), grew.out() + grew.err());
        assertTrue(grew.out().contains("1 events appended"), grew.out());

        final Path other = dir.resolve("q.csv");
        write(other, HEADER + "1,1000,k,12");
        final Cli taken = Cli.run("ingest", "--input", other.toString(), "--journal", journal, "--final");
        assertEquals(0, taken.exit(), taken.out() + taken.err());
        append(other, "345\n2,2000,k,1\n"); // the line was not complete: it would be 12345
        final Cli refused = Cli.run("ingest", "--input", other.toString(), "--journal", journal);
        assertEquals(2, refused.exit(), refused.out() + refused.err());
        assertTrue(refused.err().contains("line 2 of " + other + " was ingested without a line terminator"), refused.err());
        assertEquals(List.of("1,1000,k,12", "2,2000,k,1", "1,1000,k,12"), JournalContents.events(dir.resolve("journal")),
            "nothing appended by the refused ingest");
    }

    private static void write(final Path file, final String text) throws IOException
    {
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private static void append(final Path file, final String text) throws IOException
    {
        Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }
}
