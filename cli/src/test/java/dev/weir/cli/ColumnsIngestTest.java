package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.testsupport.JournalRows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir ingest|run --columns}: a six-column payments CSV with RFC 4180 quoting, its rejected lines
 * with their numbers and reasons, a rerun that appends nothing, and the refusals (exit 2) of columns or a
 * header that do not match the journal's.
 */
class ColumnsIngestTest
{
    static final String PAYMENT_COLUMNS = "card:string,merchant:string,country:string,amount:decimal(2),fee:long,channel:string";

    @TempDir
    Path dir;

    @Test
    void ingestsQuotedFieldsRejectsBadLinesWithTheirNumbersAndReasonsAndAppendsNothingOnARerun() throws IOException
    {
        final Path input = payments();
        final Path journal = dir.resolve("journal");

        final Cli cli = Cli.run("ingest", "--input", input.toString(), "--journal", journal.toString(), "--columns", PAYMENT_COLUMNS);

        assertEquals(0, cli.exit(), cli.err());
        assertTrue(cli.out().contains("Read 10 lines from " + input + ": 4 events appended to journal " + journal + ", 6 rejected"), cli.out());
        assertEquals(List.of(
            "line,reason,content",
            "5,bad decimal in column amount: 1.234 (scale 2),\"3,3000,c1,Acme,CH,1.234,0,web\"",
            "6,bad long in column fee: x,\"4,4000,c3,Shop,FR,10,x,web\"",
            "7,empty string in column card,\"5,5000,,Shop,FR,10,1,web\"",
            "8,unterminated quote in field 4 (merchant),\"6,6000,c4,\"\"Shop, FR,1,1,web\"",
            "9,\"expected 8 fields, got 7\",\"7,7000,c4,M,FR,1,1\"",
            "10,string over 256 bytes in column merchant,\"8,8000,c5," + "m".repeat(257) + ",FR,1,1,web\""),
            Files.readAllLines(dir.resolve("payments.csv.rejected.csv")));
        assertEquals(JournalSchema.parse(PAYMENT_COLUMNS), JournalDirectory.open(journal).schema());
        final List<String> rows = List.of(
            "1|1000|c1|Acme, Inc.|CH|12.34|5|web",
            "2|2000|c2|The \"Best\" Shop|DE|0.50|0|pos",
            "10|2500|c2|,|DE|-7.00|-1|\"",
            "9|9000|c\u00e9|Caf\u00e9 \"Z\u00fcrich\"|CH|-3.10|2|app");
        assertEquals(rows, JournalRows.events(journal));

        final Cli again = Cli.run("ingest", "--input", input.toString(), "--journal", journal.toString());
        assertEquals(0, again.exit(), again.err());
        assertTrue(again.out().contains("0 events appended"), again.out());
        assertTrue(again.out().contains("10 lines were already ingested"), again.out());
        assertEquals(7, Files.readAllLines(dir.resolve("payments.csv.rejected.csv")).size(), "each rejected line once");
        assertEquals(rows, JournalRows.events(journal), "nothing appended twice");

        final Cli inspect = Cli.run("inspect", journal.toString());
        assertEquals(0, inspect.exit(), inspect.err());
        assertTrue(inspect.out().contains("columns      " + PAYMENT_COLUMNS + "\n"), inspect.out());
        assertTrue(inspect.out().contains("4 events, 6 rejected lines, 1 ingests, distinct card 3, merchant 4, country 2, channel 4"),
            inspect.out());
    }

    @Test
    void runIngestsWithTheColumnsAndResumesTheJournalWithoutThem() throws IOException
    {
        final Path input = payments();
        final Path journal = dir.resolve("journal");
        final Path results = dir.resolve("out/results.csv");

        final Cli refused = Cli.run("run", "--input", input.toString(), "--journal", journal.toString(), "--columns", PAYMENT_COLUMNS,
            "--window", "tumbling:10s", "--results", results.toString());
        assertEquals(2, refused.exit(), "no column named key: " + refused.err());
        assertFalse(Files.exists(journal), "refused before anything is ingested");

        final Cli cli = Cli.run("run", "--input", input.toString(), "--journal", journal.toString(), "--columns", PAYMENT_COLUMNS,
            "--key", "card", "--value", "amount", "--window", "tumbling:10s", "--results", results.toString());

        assertEquals(0, cli.exit(), cli.err());
        assertEquals(7, Files.readAllLines(dir.resolve("out/results.csv.rejected.csv")).size());
        assertTrue(Files.readAllLines(dir.resolve("out/results.csv.rejected.csv")).get(1).startsWith("5,bad decimal in column amount: 1.234 (scale 2),"));
        assertEquals(4, JournalRows.events(journal).size());
        assertEquals(JournalSchema.parse(PAYMENT_COLUMNS), JournalDirectory.open(journal).schema());

        final Cli again = Cli.run("run", "--input", input.toString(), "--journal", journal.toString(),
            "--key", "card", "--value", "amount", "--window", "tumbling:10s", "--results", results.toString());
        assertEquals(0, again.exit(), again.err());
        assertEquals(4, JournalRows.events(journal).size(), "the rerun, in the journal's columns, appends nothing");
    }

    @Test
    void columnsOtherThanAnExistingJournalsAreRefusedNamingBoth() throws IOException
    {
        final Path journal = dir.resolve("journal");
        assertEquals(0, Cli.run("ingest", "--input", payments().toString(), "--journal", journal.toString(), "--columns", PAYMENT_COLUMNS).exit());
        final String other = "card:string,merchant:string,country:string,amount:decimal(3),fee:long,channel:string";

        for (final String command : List.of("ingest", "run"))
        {
            final Cli cli = "ingest".equals(command)
                ? Cli.run("ingest", "--input", payments().toString(), "--journal", journal.toString(), "--columns", other)
                : Cli.run("run", "--input", payments().toString(), "--journal", journal.toString(), "--columns", other,
                    "--window", "tumbling:10s", "--results", dir.resolve("results.csv").toString());
            assertEquals(2, cli.exit(), command + ": " + cli.out() + cli.err());
            assertTrue(cli.err().contains("has the columns " + PAYMENT_COLUMNS + ", not the --columns " + other), command + ": " + cli.err());
        }

        final Path defaultJournal = dir.resolve("default");
        final Path events = write("events.csv", "event_id,event_time,key,value", "1,1000,a,1");
        assertEquals(0, Cli.run("ingest", "--input", events.toString(), "--journal", defaultJournal.toString()).exit());
        final Cli cli = Cli.run("ingest", "--input", payments().toString(), "--journal", defaultJournal.toString(), "--columns", PAYMENT_COLUMNS);
        assertEquals(2, cli.exit(), cli.err());
        assertTrue(cli.err().contains("has the columns key:string,value:long, not the --columns " + PAYMENT_COLUMNS), cli.err());
    }

    @Test
    void aHeaderOtherThanTheColumnsIsRefusedBeforeAnyJournalIsMade() throws IOException
    {
        final Path journal = dir.resolve("journal");
        final Cli newJournal = Cli.run("ingest", "--input", payments().toString(), "--journal", journal.toString(),
            "--columns", "card:string,merchant:string,country:string,amount:decimal(2),fee:long");
        assertEquals(2, newJournal.exit(), newJournal.err());
        assertTrue(newJournal.err().contains("does not start with the header 'event_id,event_time,card,merchant,country,amount,fee' of the columns "
            + "card:string,merchant:string,country:string,amount:decimal(2),fee:long; its first line is "
            + "'event_id,event_time,card,merchant,country,amount,fee,channel'"), newJournal.err());
        assertFalse(Files.exists(journal), "nothing is created");

        final Cli defaultColumns = Cli.run("ingest", "--input", payments().toString(), "--journal", journal.toString());
        assertEquals(2, defaultColumns.exit(), defaultColumns.err());
        assertTrue(defaultColumns.err().contains("payments.csv names card,merchant,country,amount,fee,channel, not the default key,value: pass the "
            + "columns, e.g.\n  --columns 'card:string,merchant:string,country:string,amount:decimal(2),fee:long,channel:string'"), defaultColumns.err());

        assertEquals(0, Cli.run("ingest", "--input", payments().toString(), "--journal", journal.toString(), "--columns", PAYMENT_COLUMNS).exit());
        final Path events = write("events.csv", "event_id,event_time,key,value", "1,1000,a,1");
        final Cli existing = Cli.run("ingest", "--input", events.toString(), "--journal", journal.toString());
        assertEquals(2, existing.exit(), existing.err());
        assertTrue(existing.err().contains("does not start with the header 'event_id,event_time,card,merchant,country,amount,fee,channel' of the "
            + "columns " + PAYMENT_COLUMNS + "; its first line is 'event_id,event_time,key,value'"), existing.err());
    }

    @Test
    void badColumnsAreRefused() throws IOException
    {
        final Cli cli = Cli.run("ingest", "--input", payments().toString(), "--journal", dir.resolve("j").toString(), "--columns", "card:text");
        assertEquals(2, cli.exit(), cli.err());
        assertTrue(cli.err().contains("--columns card:text: column 'card:text' is not name:type"), cli.err());
        assertFalse(Files.exists(dir.resolve("j")));
    }

    /**
     * @return the payments CSV: lines 2, 3, 4 and 11 are valid, 5 to 10 are rejected.
     */
    private Path payments() throws IOException
    {
        return write("payments.csv",
            "event_id,event_time,card,merchant,country,amount,fee,channel",
            "1,1000,c1,\"Acme, Inc.\",CH,12.34,5,web",
            "2,2000,c2,\"The \"\"Best\"\" Shop\",DE,0.5,0,pos",
            "10,2500,c2,\",\",DE,-7,-1,\"\"\"\"",
            "3,3000,c1,Acme,CH,1.234,0,web",
            "4,4000,c3,Shop,FR,10,x,web",
            "5,5000,,Shop,FR,10,1,web",
            "6,6000,c4,\"Shop, FR,1,1,web",
            "7,7000,c4,M,FR,1,1",
            "8,8000,c5," + "m".repeat(257) + ",FR,1,1,web",
            "9,9000,c\u00e9,\"Caf\u00e9 \"\"Z\u00fcrich\"\"\",CH,-3.1,2,app");
    }

    private Path write(final String name, final String... lines) throws IOException
    {
        final Path file = dir.resolve(name);
        Files.write(file, List.of(lines), StandardCharsets.UTF_8);
        return file;
    }
}
