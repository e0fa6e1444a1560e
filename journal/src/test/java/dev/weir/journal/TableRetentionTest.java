package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import net.openhft.chronicle.core.time.SetTimeProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.weir.journal.schema.EventView;
import dev.weir.journal.schema.TableRowView;

/**
 * Retention and table rows: once the cycles before a history base are removed, a key whose only row was in them still
 * joins. The base holds the removed cycles' table rows (tombstones included, one per table, key and valid-from time:
 * the last appended), in journal order with their original offsets, and a reader from the start hands them before
 * the first document from the base on; a reader that resumes past the base does not. An ingest of table rows resumes
 * after its last line though that line's cycle is gone.
 */
class TableRetentionTest
{
    private static final long DAY = 86_400_000L;

    @TempDir
    Path dir;

    private final List<Long> offsets = new ArrayList<>();
    private final List<Long> cycleStarts = new ArrayList<>();

    @AfterEach
    void systemClock()
    {
        JournalClock.useForTests(null);
    }

    /**
     * Cycle 0: an ingest of cards (a: its only row; b: two rows of one valid-from time and one of another; c: a row,
     * then its tombstone), an event. Cycle 1: an event, a row of d, an event. Cycle 2: an event.
     */
    private JournalDirectory seed()
    {
        final SetTimeProvider clock = new SetTimeProvider(1_700_000_000_000L * 1_000_000L);
        JournalClock.useForTests(JournalClock.of(clock::currentTimeMillis));
        JournalDirectory.openOrCreateForTable(dir, TableJournalMarkerTest.CARDS, null);
        try (EventJournal journal = EventJournal.openOrCreate(dir, TableJournalMarkerTest.PAYMENTS, null))
        {
            final TableAppender cards = journal.table("cards");
            cycleStarts.add(add(journal.appendIngestStart("file:/cards.csv@1", 1)));
            add(cards.upsertIngested(card(cards, "a", 10, "DE"), 1));
            add(cards.upsertIngested(card(cards, "b", 10, "FR"), 2));
            add(cards.upsertIngested(card(cards, "c", 10, "IT"), 3));
            add(cards.upsertIngested(card(cards, "b", 10, "ES"), 4));
            add(cards.upsertIngested(card(cards, "b", 20, "PT"), 5));
            add(cards.deleteIngested(card(cards, "c", 30, "IT"), 6));
            add(event(journal, 1));
            clock.advanceMillis(DAY);
            cycleStarts.add(add(event(journal, 2)));
            add(cards.upsert(card(cards, "d", 40, "NL")));
            add(event(journal, 3));
            clock.advanceMillis(DAY);
            cycleStarts.add(add(event(journal, 4)));
        }
        return JournalDirectory.open(dir);
    }

    private long add(final long offset)
    {
        offsets.add(offset);
        return offset;
    }

    private static TableRow card(final TableAppender cards, final String card, final long validFrom, final String home)
    {
        return cards.row().validFrom(validFrom).setString(0, card).setString(1, home).setLong(2, validFrom * 100).setString(3, "gold");
    }

    private static long event(final EventJournal journal, final long id)
    {
        return journal.append(journal.row().eventId(id).eventTime(id * 10).setString(0, journal.stringId(0, "a"))
            .setString(1, journal.stringId(1, "DE")).setLong(2, id));
    }

    /** What a reader from the start (or sought to {@code seek}, if not null) reads: rows with their offsets, events. */
    private static List<String> read(final JournalDirectory directory, final Long seek)
    {
        final List<String> read = new ArrayList<>();
        try (JournalReader reader = JournalReader.open(directory))
        {
            if (seek != null)
            {
                reader.seek(seek);
            }
            final EventViewConsumer consumer = new EventViewConsumer()
            {
                @Override
                public void onEvent(final long offset, final EventView event)
                {
                    read.add("event " + event.eventId());
                }

                @Override
                public void onTableRow(final long offset, final TableRowView row)
                {
                    read.add(offset + " " + row.string(0) + " from " + row.validFrom() + (row.tombstone() ? " tombstone" : " " + row.string(1)));
                }
            };
            while (reader.poll(consumer, 2) > 0)
            {
                // to the end, two at a time: the base's rows are handed within the limit too
            }
        }
        return read;
    }

    private void deleteFirstCycle(final JournalDirectory directory) throws IOException
    {
        try (Stream<Path> files = Files.list(directory.eventsQueue()))
        {
            final List<Path> cycles = files.filter(f -> f.toString().endsWith(".cq4")).sorted().toList();
            assertEquals(3, cycles.size(), cycles.toString());
            Files.delete(cycles.get(0));
        }
        Files.deleteIfExists(directory.root().resolve(DictionarySnapshot.FILE));
    }

    @Test
    void aKeyWhoseOnlyRowWasInARemovedCycleIsStillRead() throws IOException
    {
        final JournalDirectory directory = seed();
        final List<String> before = read(directory, null);
        assertEquals(List.of(offsets.get(1) + " a from 10 DE", offsets.get(2) + " b from 10 FR", offsets.get(3) + " c from 10 IT",
            offsets.get(4) + " b from 10 ES", offsets.get(5) + " b from 20 PT", offsets.get(6) + " c from 30 tombstone", "event 1", "event 2",
            offsets.get(9) + " d from 40 NL", "event 3", "event 4"), before);

        final HistoryBase.Summary summary = HistoryBase.advance(directory, cycleStarts.get(1), List.of(), 0, null);
        assertEquals(5, summary.countsBefore().tableRows(), "b's two rows from 10 are one");
        deleteFirstCycle(directory);

        final List<String> after = read(directory, null);
        assertEquals(List.of(offsets.get(1) + " a from 10 DE", offsets.get(3) + " c from 10 IT", offsets.get(4) + " b from 10 ES",
            offsets.get(5) + " b from 20 PT", offsets.get(6) + " c from 30 tombstone", "event 2", offsets.get(9) + " d from 40 NL", "event 3",
            "event 4"), after, "the removed rows first, in journal order, with their offsets; b from 10: the last appended");
        assertEquals(after, read(directory, -1L), "seek(-1): from the start");
        assertEquals(List.of(offsets.get(9) + " d from 40 NL", "event 3", "event 4"), read(directory, offsets.get(9)),
            "a reader sought past the base's first offset resumes with the state it had: no rows of the base");
        assertEquals(6, IngestLog.counts(directory).tableRows(), "the five held and d");
        assertEquals(7, IngestLog.nextLine(directory, "file:/cards.csv@1"), "the table's ingest resumes after its last line");

        final HistoryBase.Summary twice = HistoryBase.advance(directory, cycleStarts.get(2), List.of(), 0, null);
        assertEquals(6, twice.countsBefore().tableRows(), "the old base's rows and d's");
        final List<String> third = read(directory, null);
        assertEquals(List.of(offsets.get(1) + " a from 10 DE", offsets.get(3) + " c from 10 IT", offsets.get(4) + " b from 10 ES",
            offsets.get(5) + " b from 20 PT", offsets.get(6) + " c from 30 tombstone", offsets.get(9) + " d from 40 NL", "event 4"), third);
    }

    @Test
    void aBaseWrittenWhileTheEventsWerePendingHoldsOnceAnEventIngestFixesThem() throws IOException
    {
        final SetTimeProvider clock = new SetTimeProvider(1_700_000_000_000L * 1_000_000L);
        JournalClock.useForTests(JournalClock.of(clock::currentTimeMillis));
        try (EventJournal journal = EventJournal.open(JournalDirectory.openOrCreateForTable(dir, TableJournalMarkerTest.CARDS, null)))
        {
            final TableAppender cards = journal.table("cards");
            cycleStarts.add(add(cards.upsert(card(cards, "a", 10, "DE"))));
            clock.advanceMillis(DAY);
            cycleStarts.add(add(cards.upsert(card(cards, "b", 20, "FR"))));
            clock.advanceMillis(DAY);
            cycleStarts.add(add(cards.upsert(card(cards, "c", 30, "IT"))));
        }
        HistoryBase.advance(JournalDirectory.open(dir), cycleStarts.get(1), List.of(), 0, null);
        deleteFirstCycle(JournalDirectory.open(dir));
        final JournalDirectory fixed = JournalDirectory.openOrCreate(dir, TableJournalMarkerTest.PAYMENTS);
        try (EventJournal journal = EventJournal.open(fixed))
        {
            add(event(journal, 1));
        }
        assertEquals(List.of(offsets.get(0) + " a from 10 DE", offsets.get(1) + " b from 20 FR", offsets.get(2) + " c from 30 IT", "event 1"),
            read(JournalDirectory.open(dir), null));
    }

    @Test
    void aRowOfTheSameKeyAndTimeAfterTheBaseStillComesAfterTheHeldOne() throws IOException
    {
        final JournalDirectory directory = seed();
        HistoryBase.advance(directory, cycleStarts.get(1), List.of(), 0, null);
        deleteFirstCycle(directory);
        try (EventJournal journal = EventJournal.open(directory))
        {
            final TableAppender cards = journal.table("cards");
            add(cards.upsert(card(cards, "a", 10, "AT")));
        }
        final List<String> read = read(directory, null);
        assertTrue(read.get(0).endsWith(" a from 10 DE") && read.get(read.size() - 1).equals(offsets.get(offsets.size() - 1) + " a from 10 AT"),
            read.toString());
    }
}
