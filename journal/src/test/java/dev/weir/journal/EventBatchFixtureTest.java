package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.weir.journal.codec.EventDecoder;
import dev.weir.journal.schema.EventView;

/**
 * A committed journal of batched documents (marker version 5: {@code src/test/resources/fixtures/events-batch-v5.tar.gz},
 * written once by {@link #write} and never changed) whose events queue holds an ingest start, {@link
 * dev.weir.journal.codec.DocumentType#EVENT_BATCH} documents of 1, 5 and 64 events (keys first used inside a batch),
 * single events, a rejected line and a heartbeat: it reads back, event for event and offset for offset, as pinned in
 * {@code events-batch-v5.expected}, from the start and from a seek into a batch; its ingest log, counts and keys agree.
 * The file is written only with {@code -Dweir.fixture.write=true} when missing.
 */
class EventBatchFixtureTest
{
    static final Path FIXTURE = Path.of("src/test/resources/fixtures/events-batch-v5.tar.gz");
    static final Path EXPECTED = Path.of("src/test/resources/fixtures/events-batch-v5.expected");

    @TempDir
    Path dir;

    @Test
    void theCommittedJournalOfBatchedEventsReadsAsPinned() throws Exception
    {
        if (!Files.exists(FIXTURE) && Boolean.getBoolean("weir.fixture.write"))
        {
            write();
        }
        final Process tar = new ProcessBuilder("tar", "-xzf", FIXTURE.toAbsolutePath().toString(), "-C", dir.toString()).inheritIO().start();
        assertEquals(0, tar.waitFor(), "tar");
        final JournalDirectory journal = JournalDirectory.open(dir.resolve("journal"));
        assertEquals(JournalDirectory.FORMAT_VERSION_BATCHED, journal.formatVersion());
        assertTrue(journal.offsets().batched());
        final List<String> expected = Files.readAllLines(EXPECTED, StandardCharsets.UTF_8).stream().filter(l -> !l.startsWith("#")).toList();
        final List<String> read = read(journal, -1);
        assertEquals(expected, read);
        // a seek into the batch of 64, at its slot 37
        final int at = 1 + 5 + 1 + 37;
        final long offset = Long.parseLong(expected.get(at).split(" ")[0]);
        assertEquals(37, journal.offsets().slot(offset));
        assertEquals(expected.subList(at, expected.size()), read(journal, offset));
        final IngestLog.Counts counts = IngestLog.counts(journal);
        assertEquals(List.of((long)expected.size(), 1L, 1L, 1L), List.of(counts.events(), counts.rejected(), counts.ingests(), counts.heartbeats()));
        assertEquals(Long.valueOf(2L + expected.size() + 1), IngestLog.nextLines(journal).get("fixture.csv"), "the line after the last");
    }

    /** @return each event read from {@code from} on (from the start if negative): offset, id, time, key, value, line. */
    private static List<String> read(final JournalDirectory journal, final long from)
    {
        final List<String> lines = new ArrayList<>();
        try (JournalReader reader = JournalReader.open(journal); KeyDictionary keys = KeyDictionary.open(journal))
        {
            if (from >= 0)
            {
                reader.seek(from);
            }
            while (reader.poll((EventViewConsumer)(o, event) -> lines.add(o + " " + event.eventId() + " " + event.eventTime() + " "
                + keys.name(event.stringId(0)) + " " + event.longColumn(1) + " " + ((EventDecoder)event).line()), 7) > 0)
            {
                // reads to the end
            }
        }
        return lines;
    }

    /** Write the fixture and its expected events (once: the committed files are never rewritten). */
    private void write() throws IOException, InterruptedException
    {
        final Path root = dir.resolve("write").resolve("journal");
        final List<String> expected = new ArrayList<>();
        try (EventJournal journal = EventJournal.open(JournalDirectory.create(root)))
        {
            assertTrue(journal.directory().offsets().batched());
            journal.appendIngestStart("fixture.csv", 2);
            long line = 2;
            int id = 100;
            for (final int size : new int[] {1, 5, 0, 64})
            {
                if (size == 0)
                {
                    journal.appendRejected(line++, "not a number", "x,y,z");
                    journal.appendHeartbeat(5_000);
                    journal.appendIngested(line++, id, 2_000L + id, "single-" + id, -id, -1);
                    id++;
                    continue;
                }
                for (int e = 0; e < size; e++)
                {
                    journal.batch().appendIngested(line++, id, 2_000L + id, "key-" + (id % 7), id * 3L, -1);
                    id++;
                }
                journal.batch().flush();
            }
            journal.appendIngested(line++, id, 2_000L + id, "key-1", 1, -1);
        }
        final JournalDirectory journal = JournalDirectory.open(root);
        expected.add("# offset event_id event_time key value line: the events of events-batch-v5.tar.gz, in journal order");
        expected.addAll(read(journal, -1));
        Files.createDirectories(FIXTURE.getParent());
        final Process tar = new ProcessBuilder("tar", "--sparse", "--sort=name", "--owner=0", "--group=0", "--numeric-owner", "-czf",
            FIXTURE.toAbsolutePath().toString(), "-C", root.getParent().toString(), "journal").inheritIO().start();
        assertEquals(0, tar.waitFor(), "tar");
        Files.write(EXPECTED, expected, StandardCharsets.UTF_8);
    }
}
