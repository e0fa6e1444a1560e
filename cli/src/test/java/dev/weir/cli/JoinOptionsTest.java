package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRollCycle;
import dev.weir.journal.TableAppender;
import dev.weir.journal.TableRow;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir run|replay --join TABLE[:TCOL=ECOL,...] --join-missing drop|keep}: a rule compares each payment with
 * its card's home country; the summary, {@code weir inspect} and {@code weir stat} count the unmatched events; a
 * replay gives the run's rows; a join the journal cannot satisfy, a malformed flag, and {@code --kafka} with a join of a
 * table it does not declare ({@code --table}) are refused with one message and exit code 2.
 */
class JoinOptionsTest
{
    private static final JournalSchema EVENTS = JournalSchema.parse("payer_card:string,country:string,amount:decimal(2)");
    private static final TableDefinition CARDS = TableDefinition.parse("cards", "card", "card:string,home:string,limit:decimal(2)=0");

    @TempDir
    Path dir;

    @Test
    void aRunJoinsEachPaymentWithItsCardAndCountsTheUnmatched() throws IOException
    {
        final Path journal = journal();
        final Path results = dir.resolve("abroad.csv");
        final Cli run = Cli.run("run", "--journal", journal.toString(), "--key", "payer_card", "--value", "amount", "--window", "tumbling:1s",
            "--join", "cards:card=payer_card", "--where", "country != cards.home", "--results", results.toString());
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("\nunmatched       1 with no row in a joined table (since the journal's first event)\n"), run.out());
        assertTrue(run.out().contains("\nfiltered        2 by --where"), run.out());
        assertEquals(List.of("window_start,window_end,payer_card,count,sum,min,max,version", "1000,2000,c1,2,50.00,10.00,40.00,0"),
            Files.readAllLines(results));

        final Cli inspect = Cli.run("inspect", journal.toString());
        assertEquals(0, inspect.exit(), inspect.err());
        assertTrue(inspect.out().contains("join=cards(card=payer_card)"), inspect.out());
        assertTrue(inspect.out().contains("unmatched    1 events a join found no row for"), inspect.out());
        final Cli stat = Cli.run("stat", journal.toString(), "--once");
        assertEquals(0, stat.exit(), stat.err());
        assertTrue(stat.out().contains("events unmatched by a join"), stat.out());

        final Path replayed = dir.resolve("replayed.csv");
        final Cli replay = Cli.run("replay", "--journal", journal.toString(), "--key", "payer_card", "--value", "amount", "--window", "tumbling:1s",
            "--join", "cards:card=payer_card", "--where", "country != cards.home", "--results", replayed.toString());
        assertEquals(0, replay.exit(), replay.err());
        assertEquals(Files.readAllLines(results), Files.readAllLines(replayed));
    }

    @Test
    void withJoinMissingKeepAnEventWithoutARowReadsTheDefaults() throws IOException
    {
        final Path journal = journal();
        final Path results = dir.resolve("kept.csv");
        final Cli replay = Cli.run("replay", "--journal", journal.toString(), "--key", "payer_card", "--value", "amount", "--window", "tumbling:1s",
            "--join", "cards:card=payer_card", "--join-missing", "keep", "--where", "cards.home = ''", "--results", results.toString());
        assertEquals(0, replay.exit(), replay.err());
        assertEquals(List.of("window_start,window_end,payer_card,count,sum,min,max,version", "1000,2000,c9,1,30.00,30.00,30.00,0"),
            Files.readAllLines(results));
    }

    @Test
    void aJoinThatCannotBeMadeIsRefusedWithOneMessage() throws IOException
    {
        final Path journal = journal();
        refused("--join fx: the journal has no table fx (its tables: cards)", "--join", "fx");
        refused("--join cards: the events have no column card for the table's key column card (name it: --join cards:card=COLUMN);"
            + " the events' columns are " + EVENTS, "--join", "cards");
        refused("--join cards:card: after the table, give key columns as TCOL=ECOL, comma-separated (e.g. --join cards:card=payer_card)",
            "--join", "cards:card");
        refused("--join cards: the event column amount is decimal(2) but the table's key column card is string: a key joins only a column"
            + " of the same type", "--join", "cards:card=amount");
        refused("--join cards: home=payer_card does not name a key column of the table as TCOL=ECOL (its key: card)", "--join", "cards:home=payer_card");
        refused("Invalid value for option '--join-missing': --join-missing is drop or keep: 'maybe'", "--join", "cards:card=payer_card",
            "--join-missing", "maybe");
        final Cli kafka = Cli.run("run", "--kafka", "127.0.0.1:1", "--topic", "t", "--group", "g", "--output-topic", "o", "--journal",
            journal.toString(), "--window", "tumbling:1s", "--join", "cards");
        assertEquals(2, kafka.exit(), kafka.out() + kafka.err());
        assertEquals("weir: --join cards: declare the table with --table 'cards(KEY)=COLUMNS' for --kafka",
            kafka.err().lines().findFirst().orElse(""), kafka.err());
    }

    private void refused(final String message, final String... join) throws IOException
    {
        final String[] args = new String[11 + join.length];
        System.arraycopy(new String[] {"replay", "--journal", dir.resolve("journal").toString(), "--key", "payer_card", "--value", "amount",
            "--window", "tumbling:1s", "--results"}, 0, args, 0, 10);
        args[10] = dir.resolve("refused.csv").toString();
        System.arraycopy(join, 0, args, 11, join.length);
        final Cli cli = Cli.run(args);
        assertEquals(2, cli.exit(), cli.out() + cli.err());
        assertTrue(cli.err().startsWith("weir: " + message), cli.err());
    }

    /** Card c1 at home in FR then DE; payments of c1 abroad and at home, and of c9, a card without a row. */
    private Path journal()
    {
        final Path journal = dir.resolve("journal");
        JournalDirectory.openOrCreateForTable(journal, CARDS, JournalRollCycle.DEFAULT);
        try (EventJournal writer = EventJournal.openOrCreate(journal, EVENTS))
        {
            final TableAppender cards = writer.table("cards");
            final TableRow row = cards.row();
            cards.upsert(row.clear().validFrom(1_000).setString(0, "c1").setString(1, "FR").setLong(2, 500_00));
            append(writer, 1, 1_100, "c1", "DE", 10_00);   // abroad: kept
            append(writer, 2, 1_200, "c1", "FR", 20_00);   // at home: filtered
            append(writer, 3, 1_300, "c9", "FR", 30_00);   // no row: unmatched
            cards.upsert(row.clear().validFrom(1_400).setString(0, "c1").setString(1, "NL").setLong(2, 500_00));
            append(writer, 4, 1_500, "c1", "FR", 40_00);   // abroad now: kept
            append(writer, 5, 2_500, "c1", "NL", 1_00);    // at home: filtered, closes [1000, 2000)
        }
        return journal;
    }

    private static void append(final EventJournal writer, final long id, final long time, final String card, final String country, final long cents)
    {
        writer.append(writer.row().eventId(id).eventTime(time).setString(0, writer.stringId(0, card)).setString(1, writer.stringId(1, country))
            .setLong(2, cents));
    }
}
