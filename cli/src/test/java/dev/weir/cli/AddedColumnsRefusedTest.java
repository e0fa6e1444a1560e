package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * The {@code --columns} that would change a journal's columns other than by adding columns at the end, each
 * with a default: a column removed, renamed, moved or retyped, added without a default or with one that is not a
 * value of its type, and an added column's default changed. Each is one {@code weir: ...} line naming the column
 * and the rule, exit 2, before anything is written: the marker's bytes and the events are unchanged.
 */
class AddedColumnsRefusedTest
{
    @TempDir
    Path dir;

    @Test
    void aChangeOtherThanColumnsAddedWithDefaultsIsRefusedAndTheJournalIsUntouched() throws IOException
    {
        final Path journal = fourColumns();

        refused(journal, "card:string,country:string,amount:decimal(2)", "column 2 is 'merchant', not 'country'", "cannot be removed or renamed");
        refused(journal, "card:string,merchant:string,country:string", "column 'amount' is missing", "cannot be removed");
        refused(journal, "card:string,shop:string,country:string,amount:decimal(2)", "column 2 is 'merchant', not 'shop'",
            "cannot be removed or renamed");
        refused(journal, "merchant:string,card:string,country:string,amount:decimal(2)", "column 1 is 'card', not 'merchant'",
            "cannot be reordered");
        refused(journal, "card:string,merchant:string,country:string,amount:decimal(3)",
            "column 'amount' is amount:decimal(2), not amount:decimal(3)", "cannot change its type");
        refused(journal, "card:string,merchant:string,country:string,amount:long", "column 'amount'", "cannot change its type");
        refused(journal, AddedColumnsCsv.FOUR + ",channel:string", "column 'channel' is added without a default", "channel:string=VALUE");
        refused(journal, AddedColumnsCsv.FOUR + ",channel:string=web,fee:decimal(2)", "column 'fee' is added without a default",
            "fee:decimal(2)=VALUE");
        refused(journal, AddedColumnsCsv.FOUR + ",fee:decimal(2)=0.001", "column 'fee'", "its default is not valid");
        refused(journal, AddedColumnsCsv.FOUR + ",country:string=FR", "column 'country'", "named twice");

        final Path second = dir.resolve("second.csv");
        AddedColumnsCsv.write(second, 100, 200, 1, AddedColumnsCsv.Shape.SIX);
        assertEquals(0, Cli.run("ingest", "--input", second.toString(), "--columns", AddedColumnsCsv.SIX, "--journal", journal.toString()).exit());
        refused(journal, AddedColumnsCsv.FOUR + ",channel:string=pos,fee:decimal(2)=0", "column 'channel' was added with the default web, not pos",
            "default cannot change");
        refused(journal, AddedColumnsCsv.FOUR + ",fee:decimal(2)=0", "column 5 is 'channel', not 'fee'", "cannot be removed or renamed");
    }

    @Test
    void runRefusesThemBeforeAnythingIsIngestedOrProcessed() throws IOException
    {
        final Path journal = fourColumns();
        final byte[] marker = Files.readAllBytes(journal.resolve(JournalDirectory.MARKER_FILE));
        final Path second = dir.resolve("second.csv");
        AddedColumnsCsv.write(second, 100, 200, 1, AddedColumnsCsv.Shape.SIX);

        final Cli cli = Cli.run("run", "--input", second.toString(), "--columns", AddedColumnsCsv.FOUR + ",channel:string,fee:decimal(2)=0",
            "--journal", journal.toString(), "--key", "channel", "--value", "fee", "--window", "tumbling:1s",
            "--results", dir.resolve("results.csv").toString());
        assertEquals(2, cli.exit(), cli.out() + cli.err());
        assertEquals(1, cli.errorLines(), cli.err());
        assertTrue(cli.err().startsWith("weir: ") && cli.err().contains("column 'channel' is added without a default"), cli.err());
        assertArrayEquals(marker, Files.readAllBytes(journal.resolve(JournalDirectory.MARKER_FILE)), "the marker is untouched");
        assertEquals(100, JournalRows.events(journal).size(), "nothing ingested");
        assertTrue(JournalDirectory.open(journal).pipelines().isEmpty(), "nothing processed");

        final Cli header = Cli.run("ingest", "--input", dir.resolve("first.csv").toString(), "--columns", AddedColumnsCsv.SIX,
            "--journal", journal.toString());
        assertEquals(2, header.exit(), "a file without the new columns' header: " + header.out() + header.err());
        assertTrue(header.err().contains("does not start with the header 'event_id,event_time,card,merchant,country,amount,channel,fee'"),
            header.err());
        assertArrayEquals(marker, Files.readAllBytes(journal.resolve(JournalDirectory.MARKER_FILE)), "no column added for a file refused");
        assertEquals(JournalSchema.parse(AddedColumnsCsv.FOUR), JournalDirectory.open(journal).schema());
    }

    /** @return a journal of the four columns, 100 events ingested from {@code first.csv}. */
    private Path fourColumns() throws IOException
    {
        final Path journal = dir.resolve("journal");
        final Path first = dir.resolve("first.csv");
        AddedColumnsCsv.write(first, 0, 100, 1, AddedColumnsCsv.Shape.FOUR);
        assertEquals(0, Cli.run("ingest", "--input", first.toString(), "--columns", AddedColumnsCsv.FOUR, "--journal", journal.toString()).exit());
        return journal;
    }

    private void refused(final Path journal, final String columns, final String names, final String rule) throws IOException
    {
        final byte[] marker = Files.readAllBytes(journal.resolve(JournalDirectory.MARKER_FILE));
        final List<String> events = JournalRows.events(journal);
        final Path input = dir.resolve("refused.csv");
        Files.writeString(input, csvHeader(columns) + "\n", StandardCharsets.UTF_8);

        final Cli cli = Cli.run("ingest", "--input", input.toString(), "--columns", columns, "--journal", journal.toString());

        assertEquals(2, cli.exit(), columns + ": " + cli.out() + cli.err());
        assertEquals(1, cli.errorLines(), columns + ": one line: " + cli.err());
        assertTrue(cli.err().startsWith("weir: "), cli.err());
        assertTrue(cli.err().contains(names) && cli.err().contains(rule), columns + ": the column and the rule are named: " + cli.err());
        assertArrayEquals(marker, Files.readAllBytes(journal.resolve(JournalDirectory.MARKER_FILE)), columns + ": the marker is untouched");
        assertEquals(events, JournalRows.events(journal), columns + ": the events are untouched");
    }

    /** @return the header of a file of these columns, or of the spec's names if it does not parse. */
    private static String csvHeader(final String columns)
    {
        final StringBuilder header = new StringBuilder("event_id,event_time");
        for (final String column : columns.split(","))
        {
            header.append(',').append(column, 0, column.indexOf(':'));
        }
        return header.toString();
    }
}
