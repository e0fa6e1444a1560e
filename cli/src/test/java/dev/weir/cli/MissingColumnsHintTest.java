package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CSV of other columns than the default ones, given without {@code --columns}: {@code weir ingest} and
 * {@code weir run --input} refuse it (exit 2, nothing created) with its header's names and the {@code --columns} to
 * pass, typed by a guess from the first line; and {@code weir run --key} of a column a journal of the default
 * columns lacks says the CSV was probably ingested without {@code --columns}.
 */
class MissingColumnsHintTest
{
    private static final String HINT = "weir: the header of %s names card,merchant,amount,fee, not the default key,value: pass the columns, e.g.\n"
        + "  --columns '%s'\n(the types are guessed from the first line: check them)%n";

    @TempDir
    Path dir;

    @Test
    void ingestWithoutColumnsPrintsTheColumnsToPassWithTheirTypesGuessedFromTheFirstLine() throws IOException
    {
        final Path input = write("payments.csv", "event_id,event_time,card,merchant,amount,fee", "1,1000,c1,\"Acme, Inc.\",12.50,5", "2,2000,c2,M,1,0");
        final Path journal = dir.resolve("journal");
        final Cli ingest = Cli.run("ingest", "--input", input.toString(), "--journal", journal.toString());
        assertEquals(2, ingest.exit(), ingest.out() + ingest.err());
        assertEquals(String.format(HINT, input, "card:string,merchant:string,amount:decimal(2),fee:long"), ingest.err());
        assertFalse(Files.exists(journal), "nothing is created");

        final Cli run = Cli.run("run", "--input", input.toString(), "--journal", journal.toString(), "--key", "card", "--value", "amount",
            "--window", "tumbling:10s", "--results", dir.resolve("results.csv").toString());
        assertEquals(2, run.exit(), run.out() + run.err());
        assertEquals(String.format(HINT, input, "card:string,merchant:string,amount:decimal(2),fee:long"), run.err());
        assertFalse(Files.exists(journal), "nothing is created");
    }

    @Test
    void aTypeThatCannotBeGuessedIsLeftForTheUserToFillIn() throws IOException
    {
        final Path headerOnly = write("header.csv", "event_id,event_time,card,merchant,amount,fee");
        final Cli none = Cli.run("ingest", "--input", headerOnly.toString(), "--journal", dir.resolve("journal").toString());
        assertEquals(2, none.exit(), none.out() + none.err());
        final String unknown = "<long|decimal(2)|string>";
        assertEquals(String.format(HINT, headerOnly, "card:" + unknown + ",merchant:" + unknown + ",amount:" + unknown + ",fee:" + unknown), none.err());

        final Path shortLine = write("short.csv", "event_id,event_time,card,merchant,amount,fee", "1,1000,c1,,-0.5");
        final Cli fewer = Cli.run("ingest", "--input", shortLine.toString(), "--journal", dir.resolve("journal").toString());
        assertEquals(2, fewer.exit(), fewer.out() + fewer.err());
        assertEquals(String.format(HINT, shortLine, "card:string,merchant:" + unknown + ",amount:decimal(1),fee:" + unknown), fewer.err());
    }

    @Test
    void aHeaderWithoutEventIdAndTimeKeepsItsMessage() throws IOException
    {
        final Path input = write("events.csv", "id,time,card,amount", "1,1000,c1,5");
        final Cli ingest = Cli.run("ingest", "--input", input.toString(), "--journal", dir.resolve("journal").toString());
        assertEquals(2, ingest.exit(), ingest.out() + ingest.err());
        assertEquals("weir: " + input + " does not start with the header 'event_id,event_time,key,value'" + System.lineSeparator(), ingest.err());
    }

    @Test
    void aKeyTheDefaultColumnsLackSaysTheCsvWasProbablyIngestedWithoutColumns() throws IOException
    {
        final Path input = write("events.csv", "event_id,event_time,key,value", "1,1000,a,5");
        final Path journal = dir.resolve("journal");
        assertEquals(0, Cli.run("ingest", "--input", input.toString(), "--journal", journal.toString()).exit());
        final Cli run = Cli.run("run", "--journal", journal.toString(), "--key", "card", "--window", "tumbling:10s",
            "--results", dir.resolve("results.csv").toString());
        assertEquals(2, run.exit(), run.out() + run.err());
        assertTrue(run.err().contains("no column 'card' to key by: the journal's columns are key:string,value:long (choose the key with --key / "
            + "keyColumns); these are the default columns: was the CSV ingested without --columns?"), run.err());

        final Cli value = Cli.run("run", "--journal", journal.toString(), "--value", "amount", "--window", "tumbling:10s",
            "--results", dir.resolve("results.csv").toString());
        assertEquals(2, value.exit(), value.out() + value.err());
        assertTrue(value.err().contains("no column 'amount' to aggregate: the journal's columns are key:string,value:long (choose the value with "
            + "--value / valueColumn); these are the default columns: was the CSV ingested without --columns?"), value.err());
    }

    private Path write(final String name, final String... lines) throws IOException
    {
        final Path file = dir.resolve(name);
        Files.write(file, List.of(lines), StandardCharsets.UTF_8);
        return file;
    }
}
