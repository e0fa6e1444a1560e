package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.weir.journal.codec.EventConsumer;
import dev.weir.journal.schema.EventView;
import dev.weir.journal.schema.TableRowView;

/**
 * Every reader of the events queue and table rows: {@link JournalReader#poll(EventViewConsumer, int)} hands them in
 * journal order between the events (a tombstone's non-key columns as 0 and ""), the projected poll passes over them;
 * an ingested table row is a line of its ingest ({@link IngestLog}), a row appended by other means is not; table rows
 * are counted apart from events; the dictionaries, key tuples and lag pass over them; a row is checked as an event's
 * strings are.
 */
class TableRowReadingTest
{
    @TempDir
    Path dir;

    /** Two events, then cards rows (one a tombstone) and fx rows between further events; the offsets of all. */
    private List<Long> appendMixed(final EventJournal journal)
    {
        final List<Long> offsets = new ArrayList<>();
        final EventRow event = journal.row();
        final TableAppender cards = journal.table("cards");
        final TableAppender fx = journal.table("fx");
        offsets.add(journal.append(event.eventId(1).eventTime(10).setString(0, journal.stringId(0, "c1")).setString(1, journal.stringId(1, "DE"))
            .setLong(2, 500)));
        offsets.add(cards.upsert(cards.row().validFrom(5).setString(0, "c1").setString(1, "DE").setLong(2, 100_000).setString(3, "gold")));
        offsets.add(fx.upsert(fx.row().validFrom(0).setString(0, "EUR").setString(1, "USD").setLong(2, 1_080_000)));
        offsets.add(journal.append(event.eventId(2).eventTime(20).setString(0, journal.stringId(0, "c2")).setString(1, journal.stringId(1, "FR"))
            .setLong(2, 700)));
        offsets.add(cards.delete(cards.row().validFrom(15).setString(0, "c1").setString(1, "ignored").setLong(2, 9).setString(3, "ignored")));
        offsets.add(journal.append(event.eventId(3).eventTime(30).setString(0, journal.stringId(0, "c1")).setString(1, journal.stringId(1, "DE"))
            .setLong(2, 900)));
        return offsets;
    }

    private EventJournal tablesJournal()
    {
        JournalDirectory.openOrCreateForTable(dir, TableJournalMarkerTest.CARDS, null);
        JournalDirectory.openOrCreateForTable(dir, TableJournalMarkerTest.FX, null);
        return EventJournal.openOrCreate(dir, TableJournalMarkerTest.PAYMENTS, null);
    }

    @Test
    void theViewPollHandsTableRowsInJournalOrderAndTheProjectedPollPassesOverThem()
    {
        final List<Long> offsets;
        try (EventJournal journal = tablesJournal())
        {
            offsets = appendMixed(journal);
        }
        final List<String> read = new ArrayList<>();
        final List<Long> readOffsets = new ArrayList<>();
        try (JournalReader reader = JournalReader.open(JournalDirectory.open(dir)))
        {
            final EventViewConsumer consumer = new EventViewConsumer()
            {
                @Override
                public void onEvent(final long offset, final EventView event)
                {
                    readOffsets.add(offset);
                    read.add("event " + event.eventId());
                }

                @Override
                public void onTableRow(final long offset, final TableRowView row)
                {
                    readOffsets.add(offset);
                    read.add(row.table() == 0
                        ? "cards " + row.string(0) + " " + row.string(1) + " " + row.longColumn(2) + " '" + row.string(3) + "' from " + row.validFrom()
                            + (row.tombstone() ? " tombstone" : "")
                        : "fx " + row.string(0) + "/" + row.string(1) + " " + row.longColumn(2) + " from " + row.validFrom());
                }
            };
            assertEquals(2, reader.poll(consumer, 2), "a table row counts toward the limit");
            assertEquals(4, reader.poll(consumer, 100));
            assertEquals(0, reader.poll(consumer, 100));
            assertEquals(offsets.get(5), reader.lastReadOffset());
        }
        assertEquals(List.of("event 1", "cards c1 DE 100000 'gold' from 5", "fx EUR/USD 1080000 from 0", "event 2",
            "cards c1  0 '' from 15 tombstone", "event 3"), read);
        assertEquals(offsets, readOffsets);

        final List<Long> events = new ArrayList<>();
        try (JournalReader reader = JournalReader.open(JournalDirectory.open(dir)))
        {
            final EventConsumer projected = (offset, eventId, eventTime, keyId, value) -> events.add(eventId);
            assertEquals(3, reader.poll(projected, 100));
        }
        assertEquals(List.of(1L, 2L, 3L), events);
        assertEquals(3, EventLag.after(JournalDirectory.open(dir), -1), "table rows are no lag");
        assertEquals(1, EventLag.after(JournalDirectory.open(dir), offsets.get(3)));
    }

    @Test
    void tableRowsAreCountedApartFromEventsAndNeitherDefineStringsNorKeyTuples()
    {
        final List<Long> offsets;
        try (EventJournal journal = tablesJournal())
        {
            offsets = appendMixed(journal);
            assertEquals(List.of(2, 2), List.of(journal.dictionary(0).size(), journal.dictionary(1).size()),
                "c1, c2; DE, FR: no string of a table row");
        }
        final JournalDirectory directory = JournalDirectory.open(dir);
        final IngestLog.Counts counts = IngestLog.counts(directory);
        assertEquals(List.of(3L, 3L, offsets.get(0), offsets.get(5), offsets.get(0), offsets.get(5)), List.of(counts.events(), counts.tableRows(),
            counts.firstOffset(), counts.lastOffset(), counts.firstEventOffset(), counts.lastEventOffset()));
        assertEquals(counts, IngestLog.countsByScan(directory), "from the snapshot as by a scan");
        final long[] perTable = IngestLog.tableRows(directory);
        assertEquals(List.of(2L, 1L), List.of(perTable[0], perTable[1]));
        try (EventJournal reopened = EventJournal.open(directory))
        {
            assertEquals(List.of(2, 2), List.of(reopened.dictionary(0).size(), reopened.dictionary(1).size()), "read back from the queue");
        }
        final KeyTuples tuples = KeyTuples.readBefore(directory, new int[] {0}, Long.MAX_VALUE);
        assertEquals(2, tuples.size(), "c1 and c2");
    }

    @Test
    void anIngestedTableRowIsALineOfItsIngestAndAnotherRowIsNot()
    {
        try (EventJournal journal = tablesJournal())
        {
            final TableAppender cards = journal.table("cards");
            journal.appendIngestStart("file:/cards.csv@1", 1);
            cards.upsertIngested(cards.row().validFrom(1).setString(0, "a"), 1);
            cards.deleteIngested(cards.row().validFrom(2).setString(0, "a"), 2);
            cards.upsert(cards.row().validFrom(3).setString(0, "b"));
            journal.appendRejected(3, "bad valid-from", "x,a");
            cards.upsertIngested(cards.row().validFrom(4).setString(0, "c"), 4);
            cards.upsert(cards.row().validFrom(5).setString(0, "d"));
        }
        assertEquals(5, IngestLog.nextLine(JournalDirectory.open(dir), "file:/cards.csv@1"), "resumes after line 4, its last row");
        assertEquals(0, IngestLog.counts(JournalDirectory.open(dir)).events());
    }

    @Test
    void aTableRowsStringsAreCheckedAsAnEventsAreAndItsColumnsNamed()
    {
        try (EventJournal journal = tablesJournal())
        {
            final TableRow row = journal.table("cards").row();
            assertEquals(2, row.column("limit"));
            assertEquals("table cards has no column 'limits': its columns are card:string,home:string,limit:decimal(2)=0.00,segment:string",
                assertThrows(IllegalArgumentException.class, () -> row.column("limits")).getMessage());
            assertEquals("empty string in column home of table cards", assertThrows(IllegalArgumentException.class, () -> row.setString(1, ""))
                .getMessage());
            assertEquals("line break in column home of table cards", assertThrows(IllegalArgumentException.class,
                () -> row.setString(1, "a\nb")).getMessage());
            assertEquals("string over 256 bytes in column home of table cards", assertThrows(IllegalArgumentException.class,
                () -> row.setString(1, "\u00e9".repeat(128) + "x")).getMessage());
            row.setString(1, "\u00e9".repeat(128));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> row.setLong(1, 1)).getMessage().contains("not a long or decimal column"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> row.setString(2, "x")).getMessage().contains("not a string column"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> row.validFrom(-1)).getMessage().contains("valid-from must be between 0"));
            assertEquals(0, row.clear().longColumn(2), "limit's default");
            assertThrows(IllegalArgumentException.class, () -> journal.table("fx").upsert(row), "a row of another table");
            assertThrows(IllegalArgumentException.class, () -> journal.table("merchants"));
            final TableAppender cards = journal.table("cards");
            assertEquals("table cards: key column card is not set", assertThrows(IllegalArgumentException.class,
                () -> cards.upsert(cards.row().setString(1, "DE"))).getMessage());
        }
    }
}
