package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.weir.journal.schema.JournalSchema;

/**
 * A Java writer built for the columns a journal was created with goes on appending rows after the journal gains
 * columns: each added column it leaves unset gets its default, as a CSV of the older columns does. A column the
 * journal was created with may still not be left unset.
 */
class OlderRowWriterTest
{
    private static final JournalSchema CREATED = JournalSchema.parse("card:string,amount:decimal(2)");
    private static final JournalSchema GAINED = JournalSchema.parse("card:string,amount:decimal(2),channel:string=web,fee:decimal(2)=0.5");

    @TempDir
    Path dir;

    @Test
    void anAddedColumnLeftUnsetGetsItsDefaultAndAnOriginalOneIsStillRefused()
    {
        try (EventJournal journal = EventJournal.openOrCreate(dir, CREATED))
        {
            journal.append(journal.row().eventId(1).eventTime(1_000).setString(0, journal.stringId(0, "c1")).setLong(1, 100));
        }
        JournalDirectory.openOrCreate(dir, GAINED);
        try (EventJournal journal = EventJournal.openOrCreate(dir))
        {
            // the older writer: it sets only the columns it knows
            journal.append(journal.row().eventId(2).eventTime(2_000).setString(0, journal.stringId(0, "c2")).setLong(1, 200));
            // a newer writer sets them all
            journal.append(journal.row().eventId(3).eventTime(3_000).setString(0, journal.stringId(0, "c1")).setLong(1, 300)
                .setString(2, journal.stringId(2, "app")).setLong(3, 7));
            // the row forgets what was set: the next older row gets the defaults again, not the last values
            journal.append(journal.row().eventId(4).eventTime(4_000).setString(0, journal.stringId(0, "c2")).setLong(1, 400));
            final EventRow withoutAmount = journal.row().eventId(5).eventTime(5_000).setString(0, journal.stringId(0, "c1"));
            final IllegalStateException refused = assertThrows(IllegalStateException.class, () -> journal.append(withoutAmount));
            assertTrue(refused.getMessage().contains("appended without amount"), refused.getMessage());
        }
        final List<String> rows = new ArrayList<>();
        final JournalDirectory gained = JournalDirectory.open(dir);
        try (JournalReader reader = JournalReader.open(gained);
             StringDictionaries strings = StringDictionaries.open(gained))
        {
            reader.poll((EventViewConsumer)(offset, e) -> rows.add(e.eventId() + "," + strings.dictionary(0).name(e.stringId(0)) + ","
                + e.longColumn(1) + "," + strings.dictionary(2).name(e.stringId(2)) + "," + e.longColumn(3)), 100);
        }
        assertEquals(List.of("1,c1,100,web,50", "2,c2,200,web,50", "3,c1,300,app,7", "4,c2,400,web,50"), rows);
    }
}
