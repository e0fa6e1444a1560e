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
import dev.weir.journal.schema.JournalSchema;

/**
 * Heartbeats are documents of the events queue that readers of events pass to {@code onHeartbeat}, in
 * order (a poll's limit bounds events and heartbeats together, so a consumer that claims a slot for each
 * never overfills a ring); an ingest does not count them as events; dictionaries, key tuples and the ingest log pass over them; a
 * heartbeat appender skips its append while another appender holds the journal's lock.
 */
class HeartbeatTest
{
    private static final JournalSchema SCHEMA = JournalSchema.parse("merchant:string,fee:long,country:string");

    @TempDir
    Path dir;

    @Test
    void readersPassHeartbeatsInOrderAndDoNotCountThem()
    {
        final List<String> expected = new ArrayList<>();
        try (EventJournal journal = EventJournal.openOrCreate(dir))
        {
            journal.appendIngestStart("src", 0);
            expected.add(journal.appendIngested(0, 1, 1_000, "a", 5, -1) + " event 1000");
            expected.add(journal.appendHeartbeat(4_000) + " heartbeat 4000");
            expected.add(journal.append(2, 2_000, "b", 6) + " event 2000");
            expected.add(journal.appendHeartbeat(9_000) + " heartbeat 9000");
            assertThrows(IllegalArgumentException.class, () -> journal.appendHeartbeat(-1));
            expected.add(journal.appendIngested(1, 3, 3_000, "a", 7, -1) + " event 3000");
        }
        final JournalDirectory directory = JournalDirectory.open(dir);
        try (JournalReader reader = JournalReader.open(directory))
        {
            final List<String> seen = new ArrayList<>();
            final EventConsumer consumer = new EventConsumer()
            {
                @Override
                public void onEvent(final long offset, final long eventId, final long eventTime, final int keyId, final long value)
                {
                    seen.add(offset + " event " + eventTime);
                }

                @Override
                public void onHeartbeat(final long offset, final long eventTime)
                {
                    seen.add(offset + " heartbeat " + eventTime);
                }
            };
            int passed = 0;
            int read;
            while ((read = reader.poll(consumer, 1)) > 0)
            {
                assertEquals(1, read, "the limit bounds events and heartbeats passed");
                passed += read;
            }
            assertEquals(5, passed);
            assertEquals(expected, seen);
            assertEquals(2, reader.heartbeatsRead());
            assertEquals(0, reader.rejectedRead());
        }
        try (JournalReader reader = JournalReader.open(directory))
        {
            final List<String> seen = new ArrayList<>();
            final EventViewConsumer consumer = new EventViewConsumer()
            {
                @Override
                public void onEvent(final long offset, final EventView event)
                {
                    seen.add(offset + " event " + event.eventTime());
                }

                @Override
                public void onHeartbeat(final long offset, final long eventTime)
                {
                    seen.add(offset + " heartbeat " + eventTime);
                }
            };
            assertEquals(5, reader.poll(consumer, 100));
            assertEquals(expected, seen);
        }
        final IngestLog.Counts counts = IngestLog.counts(directory);
        assertEquals(3, counts.events());
        assertEquals(2, counts.heartbeats());
        assertEquals(2, IngestLog.nextLine(directory, "src"), "the ingest's lines skip the heartbeats");
        try (KeyDictionary keys = KeyDictionary.open(directory))
        {
            assertEquals(2, keys.size());
            assertEquals("a", keys.name(0));
            assertEquals("b", keys.name(1));
        }
    }

    @Test
    void keyTuplesAndDictionariesPassOverHeartbeats()
    {
        final long before;
        try (EventJournal journal = EventJournal.openOrCreate(dir, SCHEMA))
        {
            final EventRow row = journal.row();
            journal.appendHeartbeat(10);
            row.eventId(1).eventTime(100).setString(0, journal.stringId(0, "m1")).setLong(1, 3).setString(2, journal.stringId(2, "fr"));
            journal.append(row);
            journal.appendHeartbeat(200);
            row.eventId(2).eventTime(300).setString(0, journal.stringId(0, "m2")).setLong(1, 3).setString(2, journal.stringId(2, "fr"));
            journal.append(row);
            before = journal.appendHeartbeat(400);
        }
        final JournalDirectory directory = JournalDirectory.open(dir);
        final KeyTuples tuples = KeyTuples.readBefore(directory, new int[] {0, 1}, before);
        assertEquals(2, tuples.size());
        try (StringDictionaries strings = StringDictionaries.open(directory))
        {
            assertEquals(2, strings.dictionary(0).size());
            assertEquals(1, strings.dictionary(2).size());
        }
        assertEquals(3, IngestLog.counts(directory).heartbeats());
    }

    @Test
    void aHeartbeatWhileAnotherAppenderHoldsTheLockIsSkipped()
    {
        try (EventJournal journal = EventJournal.openOrCreate(dir))
        {
            journal.append(1, 1_000, "a", 1);
            try (HeartbeatAppender heartbeats = HeartbeatAppender.open(JournalDirectory.open(dir)))
            {
                assertEquals(-1, heartbeats.tryAppend(5_000), "the journal's appender is active: skipped, no error");
            }
        }
        final long offset;
        try (HeartbeatAppender heartbeats = HeartbeatAppender.open(JournalDirectory.open(dir)))
        {
            offset = heartbeats.tryAppend(5_000);
            assertTrue(offset >= 0, "the lock is free: appended");
            assertTrue(heartbeats.tryAppend(6_000) > offset, "repeatable");
        }
        try (EventJournal journal = EventJournal.openOrCreate(dir))
        {
            assertTrue(journal.append(2, 2_000, "a", 1) > offset, "the lock was released after each heartbeat");
        }
        final IngestLog.Counts counts = IngestLog.counts(JournalDirectory.open(dir));
        assertEquals(2, counts.events());
        assertEquals(2, counts.heartbeats());
    }
}
