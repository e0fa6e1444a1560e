package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.weir.journal.schema.JournalSchema;

/**
 * A journal of the default columns that gained columns still takes events through the key-and-value methods
 * ({@link EventJournal#append(long, long, String, long)}, {@link EventJournal#keyId}, as {@code Pipeline.append}
 * uses them): an older writer's events, which get the added columns' defaults, as a CSV of the older columns does.
 */
class DefaultColumnsAppenderTest
{
    private static final JournalSchema GAINED = JournalSchema.parse("key:string,value:long,channel:string=web,fee:decimal(2)=0.5");

    @TempDir
    Path dir;

    @Test
    void theKeyAndValueMethodsAppendWithTheAddedColumnsDefaults()
    {
        try (EventJournal journal = EventJournal.openOrCreate(dir))
        {
            journal.append(1, 1_000, "a", 5);
        }
        JournalDirectory.openOrCreate(dir, GAINED);
        try (EventJournal journal = EventJournal.openOrCreate(dir))
        {
            journal.append(2, 2_000, "b", 6); // a new key: its string defined by this event
            journal.append(3, 3_000, journal.keyId("a"), 7);
            final EventRow row = journal.row().eventId(4).eventTime(4_000).setString(0, journal.keyId("b")).setLong(1, 8)
                .setString(2, journal.stringId(2, "app")).setLong(3, 25);
            journal.append(row);
            journal.append(5, 5_000, "c", 9);
        }
        final List<String> rows = new ArrayList<>();
        final JournalDirectory gained = JournalDirectory.open(dir);
        try (JournalReader reader = JournalReader.open(gained);
             StringDictionaries strings = StringDictionaries.open(gained))
        {
            reader.poll((EventViewConsumer)(offset, e) -> rows.add(e.eventId() + "," + strings.dictionary(0).name(e.stringId(0)) + ","
                + e.longColumn(1) + "," + strings.dictionary(2).name(e.stringId(2)) + "," + e.longColumn(3)), 100);
        }
        assertEquals(List.of("1,a,5,web,50", "2,b,6,web,50", "3,a,7,web,50", "4,b,8,app,25", "5,c,9,web,50"), rows);
    }
}
