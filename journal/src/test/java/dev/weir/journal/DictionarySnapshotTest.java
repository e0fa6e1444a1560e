package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.weir.journal.schema.JournalSchema;

/**
 * The dictionary snapshot: written by the appender when it closes, it makes opening a journal read it and
 * the documents after it, with the same dictionaries and counts as a scan of the whole journal; a missing,
 * corrupt, torn, foreign or possibly-outlived snapshot, or a temporary file left by a crash, changes nothing
 * but speed.
 */
class DictionarySnapshotTest
{
    private static final JournalSchema SCHEMA = JournalSchema.parse("card:string,amount:long,merchant:string,channel:string");
    private static final int CARD = 0;
    private static final int AMOUNT = 1;
    private static final int MERCHANT = 2;
    private static final int CHANNEL = 3;
    private static final int[] STRINGS = {CARD, MERCHANT, CHANNEL};

    @TempDir
    Path dir;

    /** Append a seeded session: events over string values some of which are new, rejected lines, an ingest start, heartbeats. */
    private static void session(final Path journalDir, final long seed, final int events, final int values)
    {
        final Random random = new Random(seed);
        try (EventJournal journal = EventJournal.openOrCreate(journalDir, SCHEMA))
        {
            journal.appendIngestStart("source-" + seed, 0);
            for (int i = 0; i < events; i++)
            {
                if (random.nextInt(50) == 0)
                {
                    journal.appendRejected(i, "bad", "line " + i);
                    continue;
                }
                if (random.nextInt(100) == 0)
                {
                    journal.appendHeartbeat(i);
                }
                journal.appendIngested(journal.row().eventId(seed * 1_000_000 + i).eventTime(i)
                    .setString(CARD, journal.stringId(CARD, "card-" + random.nextInt(values)))
                    .setLong(AMOUNT, random.nextInt(1000))
                    .setString(MERCHANT, journal.stringId(MERCHANT, "m\u00e9rchant-" + random.nextInt(values / 3 + 1)))
                    .setString(CHANNEL, journal.stringId(CHANNEL, random.nextBoolean() ? "web" : "pos-" + seed)), i, -1);
            }
        }
    }

    /** What opening the journal gives: every string column's id → text, and the counts. */
    private static String opened(final Path journalDir, final String expectedStatusPrefix)
    {
        final JournalDirectory directory = JournalDirectory.open(journalDir);
        try (StringDictionaries dictionaries = StringDictionaries.open(directory))
        {
            assertTrue(dictionaries.snapshotStatus().startsWith(expectedStatusPrefix), dictionaries.snapshotStatus());
            final StringBuilder b = new StringBuilder();
            for (final int column : STRINGS)
            {
                final KeyDictionary d = dictionaries.dictionary(column);
                b.append(column).append(':');
                for (int id = 0; id < d.size(); id++)
                {
                    b.append(id).append('=').append(d.name(id)).append(',');
                }
                b.append('\n');
            }
            b.append(dictionaries.counts());
            return b.toString();
        }
    }

    /** The same by a scan of the whole journal: the snapshot moved aside. */
    private String byFullScan(final Path journalDir) throws IOException
    {
        final Path snapshot = DictionarySnapshot.file(journalDir);
        final Path aside = dir.resolve("aside");
        Files.move(snapshot, aside, StandardCopyOption.REPLACE_EXISTING);
        try
        {
            final String scanned = opened(journalDir, "none");
            assertTrue(scanned.endsWith(IngestLog.countsByScan(JournalDirectory.open(journalDir)).toString()), "counts as IngestLog's scan");
            return scanned;
        }
        finally
        {
            Files.move(aside, snapshot, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    @Test
    void theAppenderWritesASnapshotWhenItClosesAndItRoundTrips() throws Exception
    {
        final Path j = dir.resolve("j");
        session(j, 1, 2_000, 300);
        final Path file = DictionarySnapshot.file(j);
        assertTrue(Files.isRegularFile(file));
        final DictionarySnapshot snapshot = DictionarySnapshot.read(file, SCHEMA.toString());
        final IngestLog.Counts counts = IngestLog.countsByScan(JournalDirectory.open(j));
        assertEquals(counts.lastOffset(), snapshot.covered, "it covers the last document");
        assertArrayEquals(new int[] {CARD, MERCHANT, CHANNEL}, snapshot.columns);
        assertEquals(counts.events(), snapshot.counts[JournalTally.EVENTS]);
        assertEquals(counts.rejected(), snapshot.counts[JournalTally.REJECTED]);
        assertEquals(counts.heartbeats(), snapshot.counts[JournalTally.HEARTBEATS]);
        assertTrue(counts.heartbeats() > 0 && counts.rejected() > 0);
        final DictionarySnapshot again = new DictionarySnapshot(snapshot.covered, snapshot.coveredCrc, snapshot.synced, snapshot.bootId,
            snapshot.counts, snapshot.columns, snapshot.ids, snapshot.texts);
        final Path copy = dir.resolve("copy");
        again.write(copy, SCHEMA.toString());
        assertArrayEquals(Files.readAllBytes(file), Files.readAllBytes(copy), "write(read(f)) = f");
        assertEquals(byFullScan(j), opened(j, "at offset " + snapshot.covered));
    }

    @Test
    void openingWithASnapshotAndATailEqualsAFullScan() throws Exception
    {
        final Path j = dir.resolve("j");
        session(j, 1, 3_000, 500);
        final Path early = dir.resolve("early.snapshot");
        Files.copy(DictionarySnapshot.file(j), early);
        session(j, 2, 3_000, 900); // new cards, merchants and a new channel after the snapshot's offset
        session(j, 3, 500, 1_200);
        final String scanned = byFullScan(j);
        assertEquals(scanned, opened(j, "at offset"));
        Files.copy(early, DictionarySnapshot.file(j), StandardCopyOption.REPLACE_EXISTING); // an older snapshot: a long tail
        assertEquals(scanned, opened(j, "at offset"));
        // an appender opened over the older snapshot gives new strings the ids a full scan would
        final int brandNew;
        try (EventJournal journal = EventJournal.open(JournalDirectory.open(j)))
        {
            final int next = journal.dictionary(CHANNEL).size();
            assertEquals(4, next, "web, pos-1, pos-2, pos-3");
            brandNew = journal.stringId(CHANNEL, "brand-new");
            assertEquals(next, brandNew);
            journal.append(journal.row().eventId(1).eventTime(1).setString(CARD, journal.stringId(CARD, "card-1"))
                .setLong(AMOUNT, 1).setString(MERCHANT, journal.stringId(MERCHANT, "m\u00e9rchant-1")).setString(CHANNEL, brandNew));
        }
        final String after = byFullScan(j);
        assertTrue(after.contains(brandNew + "=brand-new,"), after);
        assertEquals(after, opened(j, "at offset"));
    }

    @Test
    void aCorruptTornForeignOrEmptySnapshotIsIgnoredAndChangesNothingButSpeed() throws Exception
    {
        final Path j = dir.resolve("j");
        session(j, 1, 2_000, 300);
        final Path file = DictionarySnapshot.file(j);
        final byte[] good = Files.readAllBytes(file);
        final String scanned = byFullScan(j);

        final byte[] flipped = good.clone();
        flipped[good.length / 2] ^= 0x40;
        Files.write(file, flipped);
        assertEquals(scanned, opened(j, "ignored: corrupt"));

        Files.write(file, Arrays.copyOf(good, good.length / 2));
        assertEquals(scanned, opened(j, "ignored: corrupt or torn"));

        Files.write(file, new byte[0]);
        assertEquals(scanned, opened(j, "ignored: torn"));

        final Path other = dir.resolve("other");
        session(other, 7, 2_000, 300); // same schema, other events
        Files.copy(DictionarySnapshot.file(other), file, StandardCopyOption.REPLACE_EXISTING);
        assertEquals(scanned, opened(j, "ignored: of another journal"));

        final Path otherSchema = dir.resolve("other-schema");
        try (EventJournal journal = EventJournal.openOrCreate(otherSchema))
        {
            journal.append(1, 1, "k", 1);
        }
        Files.copy(DictionarySnapshot.file(otherSchema), file, StandardCopyOption.REPLACE_EXISTING);
        assertEquals(scanned, opened(j, "ignored: of a journal of columns key:string,value:long"));

        Files.write(file, good);
        assertEquals(scanned, opened(j, "at offset"));
    }

    @Test
    void aSnapshotOfAnUnsyncedJournalIsIgnoredAfterARestartOfTheMachine() throws Exception
    {
        final Path j = dir.resolve("j");
        session(j, 1, 1_000, 100);
        final Path file = DictionarySnapshot.file(j);
        final DictionarySnapshot s = DictionarySnapshot.read(file, SCHEMA.toString());
        assertFalse(s.synced, "nothing forced the queue");
        assertEquals(DictionarySnapshot.bootId(), s.bootId);
        final String scanned = byFullScan(j);
        new DictionarySnapshot(s.covered, s.coveredCrc, false, "another-boot", s.counts, s.columns, s.ids, s.texts).write(file, SCHEMA.toString());
        assertEquals(scanned, opened(j, "ignored: written before a restart of the machine"));
        new DictionarySnapshot(s.covered, s.coveredCrc, true, "", s.counts, s.columns, s.ids, s.texts).write(file, SCHEMA.toString());
        assertEquals(scanned, opened(j, "at offset"), "a synced one holds across restarts");
    }

    @Test
    void aSyncedJournalsSnapshotSaysSo() throws Exception
    {
        final Path j = dir.resolve("j");
        try (EventJournal journal = EventJournal.openOrCreate(j))
        {
            journal.append(1, 1, "a", 1);
            journal.sync();
        }
        assertTrue(DictionarySnapshot.read(DictionarySnapshot.file(j), JournalSchema.DEFAULT.toString()).synced);
        try (EventJournal journal = EventJournal.openOrCreate(j))
        {
            journal.append(2, 2, "b", 1); // after the sync
        }
        assertFalse(DictionarySnapshot.read(DictionarySnapshot.file(j), JournalSchema.DEFAULT.toString()).synced);
    }

    @Test
    void anAppenderCanWriteASyncedSnapshotWhileItRuns() throws Exception
    {
        final Path j = dir.resolve("j");
        try (EventJournal journal = EventJournal.openOrCreate(j))
        {
            journal.append(1, 1, "a", 1);
            final long last = journal.append(2, 2, "b", 1);
            journal.snapshot();
            final DictionarySnapshot s = DictionarySnapshot.read(DictionarySnapshot.file(j), JournalSchema.DEFAULT.toString());
            assertTrue(s.synced);
            assertEquals(last, s.covered);
            assertEquals(2, s.counts[JournalTally.EVENTS]);
            assertArrayEquals(new String[] {"a", "b"}, s.texts[0]);
            journal.append(3, 3, "c", 1);
        }
        try (StringDictionaries d = StringDictionaries.open(JournalDirectory.open(j)))
        {
            assertTrue(d.snapshotStatus().startsWith("at offset"), d.snapshotStatus());
            assertEquals("c", d.keyDictionary().name(2));
            assertEquals(3, d.keyDictionary().size());
            assertEquals(IngestLog.countsByScan(JournalDirectory.open(j)), d.counts());
        }
    }

    @Test
    void aTemporaryFileLeftByACrashWhileWritingIsIgnoredAndReplaced() throws Exception
    {
        final Path j = dir.resolve("j");
        session(j, 1, 1_000, 100);
        final Path temp = DictionarySnapshot.file(j).resolveSibling(DictionarySnapshot.FILE + ".tmp");
        final byte[] good = Files.readAllBytes(DictionarySnapshot.file(j));
        Files.write(temp, Arrays.copyOf(good, good.length - 9)); // killed mid-write, before the rename
        final String scanned = byFullScan(j);
        assertEquals(scanned, opened(j, "at offset"));
        Files.delete(DictionarySnapshot.file(j)); // killed before the first snapshot's rename
        assertEquals(scanned, opened(j, "none"));
        session(j, 2, 1_000, 200);
        assertTrue(Files.isRegularFile(DictionarySnapshot.file(j)));
        assertFalse(Files.exists(temp), "renamed over");
        assertEquals(byFullScan(j), opened(j, "at offset"));
    }

    @Test
    void anEmptyJournalHasNoSnapshotAndAReadOfNoneIsNull() throws Exception
    {
        final Path j = dir.resolve("j");
        try (EventJournal journal = EventJournal.openOrCreate(j, SCHEMA))
        {
            assertEquals(0, journal.dictionary(CARD).size());
        }
        assertFalse(Files.exists(DictionarySnapshot.file(j)));
        assertNull(DictionarySnapshot.read(DictionarySnapshot.file(j), SCHEMA.toString()));
        assertThrows(DictionarySnapshot.Invalid.class, () ->
        {
            Files.write(DictionarySnapshot.file(j), "not a snapshot, but long enough to be read".getBytes());
            DictionarySnapshot.read(DictionarySnapshot.file(j), SCHEMA.toString());
        });
    }
}
