package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.weir.journal.codec.EventConsumer;

class EventJournalTest
{
    @TempDir
    Path dir;

    @Test
    void appendsAMillionEventsAndReadsThemBackFromASavedOffsetAfterReopening()
    {
        final int total = 1_000_000;
        final int resumeAt = 654_321;
        long savedOffset = -1;
        long previous = -1;
        try (EventJournal journal = EventJournal.openOrCreate(dir))
        {
            for (int i = 0; i < total; i++)
            {
                final long offset = journal.append(i, 1_000L + i, "card-" + (i % 1000), i * 7L - 3);
                assertTrue(offset > previous, "offsets grow in append order");
                previous = offset;
                if (i == resumeAt)
                {
                    savedOffset = offset;
                }
            }
        }

        // A fresh queue instance over the same files: the offset survives the restart.
        try (JournalReader reader = JournalReader.open(JournalDirectory.open(dir));
             KeyDictionary keys = KeyDictionary.open(JournalDirectory.open(dir)))
        {
            assertEquals(1000, keys.size());
            reader.seek(savedOffset);
            final long[] expectedId = {resumeAt};
            final long[] firstOffset = {-1};
            final EventConsumer check = (offset, eventId, eventTime, keyId, value) ->
            {
                if (firstOffset[0] < 0)
                {
                    firstOffset[0] = offset;
                }
                final long i = expectedId[0]++;
                assertEquals(i, eventId);
                assertEquals(1_000L + i, eventTime);
                assertEquals(i * 7L - 3, value);
                assertEquals("card-" + (i % 1000), keys.name(keyId));
            };
            int read;
            while ((read = reader.poll(check, 4096)) > 0)
            {
                assertTrue(read <= 4096);
            }
            assertEquals(total, expectedId[0], "read to the end");
            assertEquals(savedOffset, firstOffset[0]);
            assertEquals(previous, reader.lastOffset());
        }
    }

    @Test
    void keyIdsAreDenseInFirstSeenOrderAndDefinedByTheirFirstEvent()
    {
        try (EventJournal journal = EventJournal.openOrCreate(dir))
        {
            assertEquals(0, journal.keyId("b"));
            assertEquals(1, journal.keyId("a"));
            assertEquals(0, journal.keyId("b"));
            journal.append(1, 10, "b", 1);
            journal.append(2, 11, "a", 1);
            journal.append(3, 12, "b", 1);
            assertEquals(2, journal.keyId("z"), "interned, but never appended: not durable");
        }
        try (EventJournal journal = EventJournal.openOrCreate(dir))
        {
            assertEquals(1, journal.keyId("a"));
            assertEquals(2, journal.keyId("c"));
            assertEquals("b", journal.keys().name(0));
        }
        try (KeyDictionary keys = KeyDictionary.open(JournalDirectory.open(dir)))
        {
            assertEquals("a", keys.name(1));
            assertEquals(null, keys.name(2), "'c' was never appended");
            assertEquals(2, keys.size());
        }
    }

    @Test
    void readerSeesEventsAppendedAfterItOpened()
    {
        try (EventJournal journal = EventJournal.openOrCreate(dir);
             JournalReader reader = JournalReader.open(journal.directory()))
        {
            final long[] count = {0};
            final EventConsumer counter = (offset, eventId, eventTime, keyId, value) -> count[0]++;
            assertEquals(0, reader.poll(counter, 10));
            journal.append(1, 10, "k", 5);
            journal.append(2, 11, "k", 6);
            assertEquals(2, reader.poll(counter, 10));
            assertEquals(2, count[0]);
        }
    }

    @Test
    void rejectsInvalidKeysAndNegativeTimesWithoutWriting()
    {
        try (EventJournal journal = EventJournal.openOrCreate(dir))
        {
            assertThrows(IllegalArgumentException.class, () -> journal.append(1, 10, "bad key", 1));
            assertThrows(IllegalArgumentException.class, () -> journal.append(1, 10, "x".repeat(65), 1));
            assertThrows(IllegalArgumentException.class, () -> journal.append(1, -1, "ok", 1));
            assertEquals(1, journal.keys().size(), "only the valid key 'ok' was defined");
        }
        try (JournalReader reader = JournalReader.open(JournalDirectory.open(dir)))
        {
            assertEquals(0, reader.poll((o, i, t, k, v) -> { }, 10));
            assertEquals(-1, reader.lastOffset());
        }
    }
}
