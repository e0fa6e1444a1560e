package dev.weir.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.TableAppender;
import dev.weir.journal.TableRow;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TableContents} counts each table's live keys at the end of time (a key's row of the greatest valid-from time
 * decides, the later appended of two of the same time), versions and tombstones, for a composite key of a string and a
 * long column; and {@link InspectionReport} writes a line per table.
 */
class TableContentsTest
{
    @TempDir
    Path dir;

    @Test
    void eachTablesLiveKeysAreThoseWhoseLatestRowIsNoTombstone()
    {
        final TableDefinition fx = TableDefinition.parse("fx", "base,day", "base:string,day:long,rate:decimal(4)");
        final TableDefinition cards = TableDefinition.parse("cards", "card", "card:string,limit:long");
        final Path root = dir.resolve("j");
        JournalDirectory.openOrCreateForTable(root, fx, null);
        JournalDirectory.openOrCreateForTable(root, cards, null);
        try (EventJournal journal = EventJournal.open(JournalDirectory.openOrCreate(root, JournalSchema.DEFAULT, null))) // fixes the events
        {
            final TableAppender rates = journal.table("fx");
            rates.upsert(rate(rates, "EUR", 1, 1_000, 9_300));
            rates.upsert(rate(rates, "EUR", 2, 1_000, 9_400));
            rates.delete(rate(rates, "EUR", 2, 2_000, 0)); // EUR/2 gone from 2000 on
            rates.upsert(rate(rates, "USD", 1, 5_000, 10_000));
            rates.delete(rate(rates, "USD", 1, 4_000, 0)); // valid from before the upsert: the upsert stays the latest
            rates.delete(rate(rates, "CHF", 1, 3_000, 0));
            rates.upsert(rate(rates, "CHF", 1, 3_000, 1)); // same time: the later appended wins
            rates.delete(rate(rates, "JPY", 1, 3_000, 0));
            rates.upsert(rate(rates, "JPY", 1, 3_000, 1));
            rates.upsert(rate(rates, "GBP", 1, 3_000, 1));
            rates.delete(rate(rates, "GBP", 1, 3_000, 0)); // same time: the later appended wins
            journal.append(1, 500, "k", 1); // an event among the rows: not counted
        }

        final List<TableContents> contents = TableContents.of(JournalDirectory.open(root));

        assertEquals(List.of(new TableContents(JournalDirectory.open(root).table("fx"), 4, 11, 5),
            new TableContents(JournalDirectory.open(root).table("cards"), 0, 0, 0)), contents);
        final StringBuilder report = new StringBuilder();
        InspectionReport.write(JournalInspection.of(root), report);
        assertTrue(report.toString().contains("table        fx: key base,day; columns base:string,day:long,rate:decimal(4); 4 keys, 11 versions, "
            + "5 tombstones" + System.lineSeparator() + "table        cards: key card; columns card:string,limit:long; 0 keys, 0 versions, "
            + "0 tombstones" + System.lineSeparator()), report.toString());
    }

    private static TableRow rate(final TableAppender rates, final String base, final long day, final long validFrom, final long rate)
    {
        return rates.row().clear().validFrom(validFrom).setString(0, base).setLong(1, day).setLong(2, rate);
    }
}
