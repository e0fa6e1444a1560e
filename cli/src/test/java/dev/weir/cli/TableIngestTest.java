package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import dev.weir.journal.EventViewConsumer;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.schema.TableRowView;
import dev.weir.journal.schema.EventView;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir ingest --table}: a table CSV into a new journal, whose events are pending until the first event ingest
 * fixes their columns; its rejected lines with their numbers and reasons; a second ingest that repeats (or leaves out)
 * the table's key and columns, and one that gives others, refused; a rerun that appends nothing; a last line still
 * being written, taken once it ends with a line break (even with {@code --final}: a table row does not record its line's
 * length, so a line taken unterminated that grew later could not be told); the refusals (exit 2) of flags and headers; and {@code weir inspect}'s table line.
 */
class TableIngestTest
{
    private static final String COLUMNS = "card:string,home:string,limit:decimal(2),segment:string";
    private static final String PAYMENTS = "card:string,country:string,amount:decimal(2)";

    @TempDir
    Path dir;

    @Test
    void aTableIngestMakesAJournalWhoseEventsAreFixedByTheFirstEventIngest() throws IOException
    {
        final Path cards = write("cards.csv", "event_time,card,home,limit,segment,op",
            "1000,c1,CH,1500,gold,",
            "2026-12-02T09:30:00Z,c2,\"DE\",20.5,silver,upsert",
            "3000,c1,CH,1500,gold,insert",
            "4000,,CH,1,gold,",
            "5000,c2,,,,delete",
            "6000,c3,FR,x,gold,");
        final Path journal = dir.resolve("journal");

        final Cli cli = ingestCards(cards, journal, "--key", "card", "--columns", COLUMNS);

        assertEquals(0, cli.exit(), cli.err());
        assertTrue(cli.out().contains("Read 6 lines from " + cards + ": 3 rows of table cards appended to journal " + journal + ", 3 rejected"),
            cli.out());
        assertEquals(List.of("line,reason,content",
            "4,\"op must be upsert, delete or empty: 'insert'\",\"3000,c1,CH,1500,gold,insert\"",
            "5,empty key column card,\"4000,,CH,1,gold,\"",
            "7,bad decimal in column limit: x (scale 2),\"6000,c3,FR,x,gold,\""), Files.readAllLines(dir.resolve("cards.csv.rejected.csv")));
        assertEquals(List.of("1000 c1 CH 150000 gold", "1796203800000 c2 DE 2050 silver", "5000 c2 delete"), tableRows(journal));
        final JournalDirectory made = JournalDirectory.open(journal);
        assertTrue(made.eventsPending(), "no event ingest yet");
        assertTrue(made.table("cards").sameAs(TableDefinition.parse("cards", "card", COLUMNS)));

        final Path payments = write("payments.csv", "event_id,event_time,card,country,amount", "1,7000,c1,CH,12.50");
        final Cli events = Cli.run("ingest", "--journal", journal.toString(), "--input", payments.toString(), "--columns", PAYMENTS);
        assertEquals(0, events.exit(), events.err());
        assertTrue(events.out().contains("1 events appended"), events.out());
        final JournalDirectory fixed = JournalDirectory.open(journal);
        assertFalse(fixed.eventsPending());
        assertEquals(JournalSchema.parse(PAYMENTS), fixed.schema());
        assertEquals(3, tableRows(journal).size(), "the table kept");

        final Path other = dir.resolve("default");
        assertEquals(0, ingestCards(write("more.csv", "event_time,card,home,limit,segment", "1000,c1,CH,1,gold"), other,
            "--key", "card", "--columns", COLUMNS).exit());
        final Cli defaults = Cli.run("ingest", "--journal", other.toString(), "--input",
            write("events.csv", "event_id,event_time,key,value", "1,1000,a,5").toString());
        assertEquals(0, defaults.exit(), defaults.err());
        assertEquals(JournalSchema.DEFAULT, JournalDirectory.open(other).schema(), "without --columns, the default columns");
        assertFalse(JournalDirectory.open(other).eventsPending());

        final Path ran = dir.resolve("ran");
        assertEquals(0, ingestCards(dir.resolve("more.csv"), ran, "--key", "card", "--columns", COLUMNS).exit());
        final Cli run = Cli.run("run", "--journal", ran.toString(), "--input", payments.toString(), "--columns", PAYMENTS, "--key", "card",
            "--value", "amount", "--window", "tumbling:10s", "--results", dir.resolve("results.csv").toString());
        assertEquals(0, run.exit(), run.err());
        assertEquals(JournalSchema.parse(PAYMENTS), JournalDirectory.open(ran).schema(), "weir run --input fixes them too");
        assertEquals(List.of("window_start,window_end,card,count,sum,min,max,version", "0,10000,c1,1,12.50,12.50,12.50,0"),
            Files.readAllLines(dir.resolve("results.csv")));
    }

    @Test
    void aSecondIngestRepeatsTheTableOrLeavesItOutAndOtherFlagsAreRefused() throws IOException
    {
        final Path journal = dir.resolve("journal");
        assertEquals(0, ingestCards(write("a.csv", "event_time,card,home,limit,segment", "1000,c1,CH,1,gold"), journal,
            "--key", "card", "--columns", COLUMNS).exit());

        final Cli same = ingestCards(write("b.csv", "event_time,card,home,limit,segment", "2000,c2,DE,2,gold"), journal,
            "--key", "card", "--columns", COLUMNS);
        assertEquals(0, same.exit(), same.err());
        final Cli bare = ingestCards(write("c.csv", "event_time,card,home,limit,segment,op", "3000,c1,,,,delete"), journal);
        assertEquals(0, bare.exit(), "the journal's key and columns: " + bare.err());
        assertEquals(List.of("1000 c1 CH 100 gold", "2000 c2 DE 200 gold", "3000 c1 delete"), tableRows(journal));

        final Path d = write("d.csv", "event_time,card,home,limit,segment", "4000,c3,FR,3,gold");
        final String otherColumns = "card:string,home:string,limit:decimal(3),segment:string";
        assertRefused(ingestCards(d, journal, "--key", "card", "--columns", otherColumns), "table cards exists with key card and columns");
        assertRefused(ingestCards(d, journal, "--key", "home"), "table cards exists with key card and columns");
        assertRefused(ingestCards(d, dir.resolve("new"), "--key", "card"), "table cards is new: give its --key and --columns");
        assertRefused(Cli.run("ingest", "--journal", journal.toString(), "--input", d.toString(), "--key", "card"),
            "weir: --key on ingest needs --table");
        assertRefused(ingestCards(d, dir.resolve("new"), "--key", "card", "--columns", "card:string,op:string"),
            "weir: table cards: column name 'op' is reserved");
        assertRefused(ingestCards(d, dir.resolve("new"), "--key", "card", "--columns", "card:string,event_time:long"),
            "weir: table cards: column name 'event_time' is reserved");
        assertRefused(ingestCards(d, dir.resolve("new"), "--key", "id", "--columns", COLUMNS),
            "weir: table cards: key column 'id' is not one of its columns");
        assertRefused(ingestCards(write("e.csv", "event_time,card,limit,home,segment", "4000,c3,3,FR,gold"), journal),
            "does not start with the header 'event_time,card,home,limit,segment' (optionally followed by ',op') of table cards; "
                + "its first line is 'event_time,card,limit,home,segment'");
        assertEquals(3, tableRows(journal).size(), "nothing appended by a refused ingest");
        assertFalse(Files.exists(dir.resolve("new")), "nothing made by a refused ingest");
    }

    @Test
    void aRerunAppendsNothingAndALastLineStillBeingWrittenIsTakenOnceTerminatedEvenWithFinal() throws IOException
    {
        final Path cards = dir.resolve("cards.csv");
        Files.writeString(cards, "event_time,card,home,limit,segment\n1000,c1,CH,1,gold\n2000,c2,DE,2,si", StandardCharsets.UTF_8);
        final Path journal = dir.resolve("journal");
        final Cli first = ingestCards(cards, journal, "--key", "card", "--columns", COLUMNS);
        assertEquals(0, first.exit(), first.err());
        assertTrue(first.out().contains("1 rows of table cards appended"), first.out());
        assertTrue(first.out().contains("Line 3 has no line terminator yet: it was left pending"), first.out());

        final Cli rerun = ingestCards(cards, journal, "--final");
        assertEquals(0, rerun.exit(), rerun.err());
        assertTrue(rerun.out().contains("0 rows of table cards appended"), rerun.out());
        assertTrue(rerun.out().contains("(1 lines were already ingested and were skipped)"), rerun.out());
        assertTrue(rerun.out().contains("Line 3 has no line terminator yet: it was left pending, not ingested; the next ingest of " + cards
            + " takes it once it is complete (a table CSV's last line is taken once it ends with a line break, even with --final)."),
            "a table row cannot record its line's length, so a line that grew later could not be told: " + rerun.out());

        Files.writeString(cards, "lver\n3000,c3,FR,3,gold\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        final Cli completed = ingestCards(cards, journal);
        assertEquals(0, completed.exit(), completed.err());
        assertTrue(completed.out().contains("2 rows of table cards appended"), completed.out());
        assertEquals(List.of("1000 c1 CH 100 gold", "2000 c2 DE 200 silver", "3000 c3 FR 300 gold"), tableRows(journal));

        final Cli again = ingestCards(cards, journal);
        assertTrue(again.out().contains("0 rows of table cards appended"), again.out());
        assertEquals(3, tableRows(journal).size(), "nothing appended twice");
    }

    @Test
    void inspectListsEachTableWithItsKeysVersionsAndTombstones() throws IOException
    {
        final Path journal = dir.resolve("journal");
        assertEquals(0, ingestCards(write("cards.csv", "event_time,card,home,limit,segment,op",
            "1000,c1,CH,1,gold,", "2000,c2,DE,2,gold,", "3000,c2,,,,delete", "1500,c1,CH,5,gold,", "900,c3,FR,1,gold,delete"), journal,
            "--key", "card", "--columns", COLUMNS).exit());
        assertEquals(0, Cli.run("ingest", "--journal", journal.toString(), "--table", "fx", "--key", "base,quote",
            "--columns", "base:string,quote:string,rate:decimal(6)", "--input",
            write("fx.csv", "event_time,base,quote,rate", "1000,EUR,CHF,0.93", "1000,EUR,USD,1.05", "2000,EUR,CHF,0.94").toString()).exit());

        final Cli inspect = Cli.run("inspect", journal.toString());

        assertEquals(0, inspect.exit(), inspect.err());
        assertTrue(inspect.out().contains("columns      pending: the first event ingest fixes the events' columns\n"), inspect.out());
        assertTrue(inspect.out().contains("table        cards: key card; columns " + COLUMNS + "; 1 keys, 5 versions, 2 tombstones\n"), inspect.out());
        assertTrue(inspect.out().contains("table        fx: key base,quote; columns base:string,quote:string,rate:decimal(6); "
            + "2 keys, 3 versions, 0 tombstones\n"), inspect.out());
    }

    private Cli ingestCards(final Path input, final Path journal, final String... flags)
    {
        final List<String> args = new ArrayList<>(List.of("ingest", "--journal", journal.toString(), "--table", "cards", "--input", input.toString()));
        args.addAll(List.of(flags));
        return Cli.run(args.toArray(String[]::new));
    }

    private static void assertRefused(final Cli cli, final String message)
    {
        assertEquals(2, cli.exit(), cli.out() + cli.err());
        assertTrue(cli.err().contains(message), cli.err());
        assertEquals(1, cli.err().lines().count(), "one line: " + cli.err());
    }

    private Path write(final String name, final String... lines) throws IOException
    {
        final Path file = dir.resolve(name);
        Files.write(file, List.of(lines), StandardCharsets.UTF_8);
        return file;
    }

    /** @return the journal's table rows: valid-from, then the columns (a decimal unscaled), or the key and "delete". */
    private static List<String> tableRows(final Path journal)
    {
        final JournalDirectory directory = JournalDirectory.open(journal);
        final List<String> rows = new ArrayList<>();
        try (JournalReader reader = JournalReader.open(directory))
        {
            final EventViewConsumer consumer = new EventViewConsumer()
            {
                @Override
                public void onEvent(final long offset, final EventView event)
                {
                }

                @Override
                public void onTableRow(final long offset, final TableRowView row)
                {
                    final TableDefinition table = directory.tables().get(row.table());
                    final StringBuilder text = new StringBuilder().append(row.validFrom());
                    for (int c = 0; c < table.columns().size(); c++)
                    {
                        if (row.tombstone() && c != table.keyColumn(0))
                        {
                            continue;
                        }
                        text.append(' ').append(table.columns().column(c).type() == dev.weir.journal.schema.ColumnType.STRING
                            ? row.string(c).toString() : Long.toString(row.longColumn(c)));
                    }
                    rows.add(row.tombstone() ? text.append(" delete").toString() : text.toString());
                }
            };
            while (reader.poll(consumer, 4096) > 0)
            {
                // to the end
            }
        }
        return rows;
    }
}
