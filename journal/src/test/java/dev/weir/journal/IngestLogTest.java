package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.weir.journal.codec.DocumentType;
import dev.weir.journal.codec.EventEncoder;
import dev.weir.journal.codec.RejectedLineEncoder;

/**
 * How far each source was ingested, read back from the journal: events appended by another appender
 * inside an ingest's block are no lines of it, and journals written before lines were tagged read as
 * they always did.
 */
class IngestLogTest
{
    @TempDir
    Path dir;

    @Test
    void untaggedEventsInsideAnIngestBlockAreNoLinesOfItsSource()
    {
        try (EventJournal journal = EventJournal.openOrCreate(dir))
        {
            journal.appendIngestStart("file-a", 2);
            journal.appendIngested(2, 1, 1_000, "a", 1, -1);
            journal.appendRejected(3, "bad", "x");
            journal.append(100, 1_500, "api", 5); // another appender's event
            journal.append(101, 1_600, "api", 6);
            journal.appendIngested(4, 2, 2_000, "a", 2, -1);
            journal.append(102, 1_700, "api", 7);
        }
        final JournalDirectory directory = JournalDirectory.open(dir);
        assertEquals(5, IngestLog.nextLine(directory, "file-a"));
        assertEquals(5, IngestLog.counts(directory).events(), "every event is still an event");
        final List<Long> lines = new ArrayList<>();
        IngestLog.scan(directory, new IngestConsumer()
        {
            @Override
            public void onIngestStart(final long offset, final String source, final long firstLine, final boolean linesTagged)
            {
                assertEquals(true, linesTagged);
            }

            @Override
            public void onRejected(final long offset, final long line, final String reason, final String content)
            {
            }

            @Override
            public void onEvent(final long offset, final long line)
            {
                lines.add(line);
            }
        });
        assertEquals(List.of(2L, -1L, -1L, 4L, -1L), lines);
        assertNull(IngestLog.unterminated(directory, "file-a"));
    }

    @Test
    void aLastLineTakenWithoutItsTerminatorIsRecordedInItsOwnDocument()
    {
        try (EventJournal journal = EventJournal.openOrCreate(dir))
        {
            journal.appendIngestStart("file-a", 2);
            journal.appendIngested(2, 1, 1_000, "a", 1, 11);
            journal.appendIngestStart("file-b", 2);
            journal.appendRejected(2, "bad", "x,y", 3);
            journal.appendIngestStart("file-c", 2);
            journal.appendIngested(2, 1, 1_000, "a", 1, -1);
        }
        final JournalDirectory directory = JournalDirectory.open(dir);
        assertEquals(List.of(2L, 11L), List.of(IngestLog.unterminated(directory, "file-a")[0], IngestLog.unterminated(directory, "file-a")[1]));
        assertEquals(List.of(2L, 3L), List.of(IngestLog.unterminated(directory, "file-b")[0], IngestLog.unterminated(directory, "file-b")[1]));
        assertNull(IngestLog.unterminated(directory, "file-c"));
        assertEquals(3, IngestLog.nextLine(directory, "file-a"));
        assertEquals(3, IngestLog.nextLine(directory, "file-b"));
        try (JournalReader reader = JournalReader.open(directory))
        {
            final List<String> events = new ArrayList<>();
            reader.poll((o, id, t, k, v) -> events.add(id + "," + t + "," + k + "," + v), 10);
            assertEquals(List.of("1,1000,0,1", "1,1000,0,1"), events, "readers of events ignore the line fields");
        }
    }

    @Test
    void aJournalWrittenBeforeLinesWereTaggedCountsEveryDocumentOfABlockAsOneLine()
    {
        final JournalDirectory directory = JournalDirectory.create(dir);
        try (SingleChronicleQueue queue = JournalQueues.open(directory, directory.eventsQueue());
             ExcerptAppender appender = queue.createAppender())
        {
            try (DocumentContext dc = appender.writingDocument()) // the old ingest start: no trailing byte
            {
                dc.wire().bytes().writeByte(DocumentType.INGEST_START);
                dc.wire().bytes().writeLong(2);
                dc.wire().bytes().writeUtf8("old-file");
            }
            try (DocumentContext dc = appender.writingDocument())
            {
                new EventEncoder().wrap(dc.wire().bytes(), true).eventId(1).eventTime(1_000).keyId(0).value(1).key("a");
            }
            try (DocumentContext dc = appender.writingDocument())
            {
                new RejectedLineEncoder().wrap(dc.wire().bytes()).line(3).reason("bad").content("x");
            }
            try (DocumentContext dc = appender.writingDocument())
            {
                new EventEncoder().wrap(dc.wire().bytes(), false).eventId(2).eventTime(2_000).keyId(0).value(2);
            }
        }
        assertEquals(5, IngestLog.nextLine(directory, "old-file"));
        try (EventJournal journal = EventJournal.open(directory))
        {
            assertEquals(0, journal.keyId("a"), "the old key definition still reads");
        }
    }
}
