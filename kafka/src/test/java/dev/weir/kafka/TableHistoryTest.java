package dev.weir.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRollCycle;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A partition's table rows: a checkpoint carries the rows of the records at or before its offset, of one table, key
 * and valid-from time only the last; a correction after the checkpoint does not replace the row it covers; a bad row
 * is refused with its table and reason.
 */
final class TableHistoryTest
{
    private static final TableDefinition CARDS = TableDefinition.parse("cards", "card", "card:string,limit:long");

    @TempDir
    Path dir;

    @Test
    void aCheckpointCarriesTheLastRowOfEachKeyAndTimeItCovers()
    {
        JournalDirectory.openOrCreate(dir, JournalSchema.DEFAULT, JournalRollCycle.DAILY);
        JournalDirectory.openOrCreateForTable(dir, CARDS, JournalRollCycle.DAILY);
        try (EventJournal journal = EventJournal.openOrCreate(dir, JournalSchema.DEFAULT, JournalRollCycle.DAILY))
        {
            final TableHistory history = new TableHistory(List.of(CARDS));
            final int cards = history.table("cards");
            assertEquals(-1, history.table("shops"));
            assertTrue(history.mirror(cards, bytes("0,c1,100,"), 10, journal) >= 0);
            assertTrue(history.mirror(cards, bytes("0,c2,50,"), 11, journal) >= 0);
            assertTrue(history.mirror(cards, bytes("0,c1,150,upsert"), 12, journal) >= 0); // corrects c1's row from 0
            assertTrue(history.mirror(cards, bytes("5000,c1,,delete"), 20, journal) >= 0);

            assertEquals(List.of("0,c1,100,", "0,c2,50,"), lines(history.through(11, 700)), "the correction is after the checkpoint");
            final PartitionTables twelve = history.through(12, 800);
            assertEquals(List.of("0,c2,50,", "0,c1,150,upsert"), lines(twelve), "the correction replaces the row, in its place");
            assertEquals(800, twelve.maxTime());
            assertEquals(List.of("0,c2,50,", "0,c1,150,upsert", "5000,c1,,delete"), lines(history.through(20, 900)));

            assertEquals(-1, history.mirror(cards, bytes("x,c1,1,"), 21, journal));
            assertTrue(history.rejection().startsWith("table cards: "), history.rejection());
            assertEquals(-1, history.mirror(cards, bytes("7,,1,"), 22, journal));
            assertEquals("table cards: empty key column card", history.rejection());

            final Path other = dir.resolve("next-owner");
            JournalDirectory.openOrCreate(other, JournalSchema.DEFAULT, JournalRollCycle.DAILY);
            JournalDirectory.openOrCreateForTable(other, CARDS, JournalRollCycle.DAILY);
            try (EventJournal next = EventJournal.openOrCreate(other, JournalSchema.DEFAULT, JournalRollCycle.DAILY))
            {
                final TableHistory restored = new TableHistory(List.of(CARDS));
                restored.restore(history.through(20, 900), next);
                assertEquals(List.of("0,c2,50,", "0,c1,150,upsert", "5000,c1,,delete"), lines(restored.through(-1, 900)),
                    "the next owner holds the checkpoint's rows as covered");
            }
        }
    }

    private static byte[] bytes(final String line)
    {
        return line.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> lines(final PartitionTables tables)
    {
        return tables.lines().stream().map(line -> new String(line, StandardCharsets.UTF_8)).toList();
    }
}
