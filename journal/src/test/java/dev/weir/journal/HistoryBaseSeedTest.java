package dev.weir.journal;

import java.nio.file.Path;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@link HistoryBase#seed}: a new journal given another journal's strings interns and resolves them under the same
 * ids (how a Kafka partition's journal is rebuilt on another machine), continues the ids after them, and a journal
 * that already has documents is refused.
 */
final class HistoryBaseSeedTest
{
    @TempDir
    Path dir;

    @Test
    void aSeededJournalKeepsTheIdsOfTheJournalItWasSeededFrom()
    {
        final TreeMap<Integer, TreeMap<Integer, String>> definitions;
        final int cardB;
        try (EventJournal first = EventJournal.openOrCreate(dir.resolve("first")))
        {
            first.append(1, 1_000, "card-a", 5);
            first.append(2, 1_001, "card-b", 6);
            first.append(3, 1_002, "card-c", 7);
            cardB = first.keyId("card-b");
            definitions = first.dictionaries().definitions();
        }
        assertEquals(3, definitions.get(0).size(), "the key column's strings: " + definitions);

        final Path second = dir.resolve("second");
        EventJournal.openOrCreate(second).close();
        HistoryBase.seed(JournalDirectory.open(second), definitions);
        try (EventJournal journal = EventJournal.openOrCreate(second))
        {
            assertEquals(cardB, journal.keyId("card-b"), "a seeded string keeps its id");
            assertEquals(3, journal.keyId("card-d"), "a new string gets the next id");
            journal.append(4, 1_003, "card-d", 8);
            journal.append(5, 1_004, "card-b", 9);
        }
        try (KeyDictionary keys = KeyDictionary.open(JournalDirectory.open(second)))
        {
            assertEquals("card-a", keys.name(0), "a reader resolves a seeded id");
            assertEquals("card-d", keys.name(3));
        }
        assertThrows(IllegalStateException.class, () -> HistoryBase.seed(JournalDirectory.open(second), definitions),
            "a journal with a base (and documents) is refused");
        final Path third = dir.resolve("third");
        try (EventJournal journal = EventJournal.openOrCreate(third))
        {
            journal.append(1, 1_000, "x", 1);
        }
        assertThrows(IllegalStateException.class, () -> HistoryBase.seed(JournalDirectory.open(third), definitions),
            "a journal with documents is refused");
    }

    @Test
    void theDictionariesOfASeededJournalOfEachRollCycleReadItsEvents()
    {
        final TreeMap<Integer, TreeMap<Integer, String>> definitions = new TreeMap<>();
        definitions.put(0, new TreeMap<>(java.util.Map.of(0, "card-a", 1, "card-b")));
        for (final JournalRollCycle cycle : JournalRollCycle.values())
        {
            final Path journal = dir.resolve("seeded-" + cycle);
            EventJournal.openOrCreate(journal, null, cycle).close();
            HistoryBase.seed(JournalDirectory.open(journal), definitions);
            try (EventJournal events = EventJournal.openOrCreate(journal))
            {
                events.append(1, 1_000, "card-c", 5);
                events.append(2, 1_001, "card-b", 6);
                // read while the appender is open: no dictionary snapshot yet, the reader starts from the base
                try (StringDictionaries dictionaries = StringDictionaries.open(JournalDirectory.open(journal)))
                {
                    assertEquals("card-c", dictionaries.keyDictionary().name(2), cycle + ": a string defined after the seeded ones");
                    assertEquals("card-a", dictionaries.keyDictionary().name(0), cycle + ": a seeded string");
                    assertEquals(2, dictionaries.counts().events(), cycle + ": the events after the base");
                }
            }
        }
    }
}
