package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;

import dev.weir.journal.codec.DocumentType;
import dev.weir.journal.codec.EventEncoder;
import dev.weir.journal.codec.IngestStartDecoder;
import dev.weir.journal.codec.IngestStartEncoder;
import dev.weir.journal.retention.OutputHistory;
import dev.weir.journal.schema.NewerFormatException;
import dev.weir.test.golden.GoldenBytes;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file or record of the journal module's formats one version above the newest this build reads, as a newer Weir
 * would write it (today's golden bytes with the version raised and the checksum made good), is refused with
 * {@link NewerFormatException} naming both versions; the dictionary snapshot, a cache, is ignored instead, so a
 * journal still opens after a rollback. A document of either queue of a type code above its queue's newest is refused
 * by every reader of the queue, not skipped.
 */
class NewerFormatsTest
{
    private final GoldenBytes golden = GoldenBytes.ofThisModule();

    @TempDir
    Path dir;

    @Test
    void aHistoryBaseOfANewerVersionIsRefused() throws Exception
    {
        final JournalDirectory journal = JournalGoldenBytesTest.goldenJournal(dir);
        Files.write(HistoryBase.file(journal), raisedVersion(golden.records("history-base", HistoryBase.VERSION).get(0), HistoryBase.VERSION));
        assertNewer(assertThrows(NewerFormatException.class, () -> HistoryBase.read(journal)), "history base", HistoryBase.VERSION);
    }

    @Test
    void anOutputHistoryOfANewerVersionIsRefused() throws Exception
    {
        final JournalDirectory journal = JournalGoldenBytesTest.goldenJournal(dir);
        final String text = raisedTextVersion(golden.records("output-history", OutputHistory.VERSION).get(0), OutputHistory.VERSION);
        final String body = text.substring(0, text.indexOf("crc="));
        Files.writeString(journal.pipelineRoot().resolve(OutputHistory.FILE), body + "crc=" + Long.toHexString(crc32c(body)) + "\n");
        assertNewer(assertThrows(NewerFormatException.class, () -> OutputHistory.read(journal)), "output history", OutputHistory.VERSION);
    }

    @Test
    void aDeliveryRecordOfANewerVersionIsRefused() throws Exception
    {
        final String text = raisedTextVersion(golden.records("delivery-position", DeliveryPositions.FORMAT_VERSION).get(0), DeliveryPositions.FORMAT_VERSION);
        final String body = text.substring(0, text.indexOf("crc="));
        final Path file = dir.resolve(DeliveryPositions.DIRECTORY).resolve("weir_results-00000000" + DeliveryPositions.SUFFIX);
        Files.createDirectories(file.getParent());
        Files.writeString(file, body + "crc=" + String.format("%08x", crc32c(body)) + "\n");
        assertNewer(assertThrows(NewerFormatException.class, () -> DeliveryPositions.read(dir)), "delivery record", DeliveryPositions.FORMAT_VERSION);
    }

    @Test
    void aDictionarySnapshotOfANewerVersionIsIgnoredAsACache() throws Exception
    {
        final Path file = Files.write(dir.resolve(DictionarySnapshot.FILE),
            raisedVersion(golden.records("dictionary-snapshot", DictionarySnapshot.VERSION).get(0), DictionarySnapshot.VERSION));
        final DictionarySnapshot.Invalid ignored = assertThrows(DictionarySnapshot.Invalid.class,
            () -> DictionarySnapshot.read(file, JournalGoldenBytesTest.COLUMNS.toString()));
        assertTrue(ignored.getMessage().contains("newer Weir (format version " + (DictionarySnapshot.VERSION + 1)), ignored.getMessage());
    }

    @Test
    void anIngestStartOfANewerVersionIsRefused()
    {
        final byte[] bytes = golden.records("ingest-start", IngestStartEncoder.VERSION).get(0).clone();
        bytes[bytes.length - 1] = IngestStartEncoder.VERSION + 1;
        assertNewer(assertThrows(NewerFormatException.class, () -> new IngestStartDecoder().wrap(Bytes.wrapForRead(bytes))), "ingest start",
            IngestStartEncoder.VERSION);
    }

    @Test
    void anOutputDocumentOfANewerTypeIsRefusedNotSkipped()
    {
        final JournalDirectory journal = JournalDirectory.create(dir.resolve("j"));
        final byte[] newer = golden.records("output-document", JournalDirectory.FORMAT_VERSION).get(0).clone();
        newer[0] = DocumentType.NEWEST_RESULTS + 1;
        try (SingleChronicleQueue queue = JournalQueues.open(journal, journal.resultsQueue()))
        {
            final ExcerptAppender appender = queue.createAppender();
            try (DocumentContext dc = appender.writingDocument())
            {
                dc.wire().bytes().write(newer);
            }
        }
        try (OutputJournal outputs = OutputJournal.open(journal))
        {
            final NewerFormatException refused = assertThrows(NewerFormatException.class, () -> outputs.readAll(output -> { }));
            assertNewer(refused, "output document", DocumentType.NEWEST_RESULTS);
            assertTrue(refused.getMessage().contains(journal.resultsQueue() + " position "), refused.getMessage());
            assertThrows(NewerFormatException.class, outputs::lastPosition);
        }
    }

    @Test
    void anEventsDocumentOfANewerTypeIsRefusedByEveryReaderNotSkipped()
    {
        final JournalDirectory journal = JournalDirectory.create(dir.resolve("j"));
        final long newer;
        final long after;
        try (EventJournal events = EventJournal.open(journal))
        {
            events.append(1, 1_000, "a", 1);
        }
        try (SingleChronicleQueue queue = JournalQueues.open(journal, journal.eventsQueue()))
        {
            final ExcerptAppender appender = queue.createAppender();
            try (DocumentContext dc = appender.writingDocument())
            {
                dc.wire().bytes().writeByte((byte)(DocumentType.NEWEST_EVENTS + 1)).writeLong(0).writeLong(0).writeLong(0).writeInt(0);
            }
            newer = journal.offsets().offset(appender.lastIndexAppended(), 0);
            try (DocumentContext dc = appender.writingDocument())
            {
                new EventEncoder().wrap(dc.wire().bytes(), false).eventId(2).eventTime(2_000).keyId(0).value(2);
            }
            after = journal.offsets().offset(appender.lastIndexAppended(), 0);
        }
        final String where = journal.eventsQueue() + " offset " + newer;
        final List<Executable> readers = List.of(
            () -> pollFields(journal),
            () -> pollViews(journal),
            () -> IngestLog.counts(journal),
            () -> IngestLog.nextLines(journal),
            () -> HistoryBase.advance(journal, after, List.of(), 0, null));
        assertAll(readers.stream().map(reader -> () ->
        {
            final NewerFormatException refused = assertThrows(NewerFormatException.class, reader);
            assertNewer(refused, "events document", DocumentType.NEWEST_EVENTS);
            assertTrue(refused.getMessage().startsWith(where + " is "), refused.getMessage());
        }));
    }

    private static void pollFields(final JournalDirectory journal)
    {
        try (JournalReader reader = JournalReader.open(journal))
        {
            reader.poll((offset, id, time, key, value) -> { }, 10);
        }
    }

    private static void pollViews(final JournalDirectory journal)
    {
        try (JournalReader reader = JournalReader.open(journal))
        {
            reader.poll((offset, event) -> { }, 10);
        }
    }

    static void assertNewer(final NewerFormatException refused, final String format, final int newest)
    {
        assertEquals(format, refused.format());
        assertEquals(newest + 1, refused.found());
        assertEquals(newest, refused.newestRead());
        assertTrue(refused.getMessage().contains(format + " version " + (newest + 1)) && refused.getMessage().contains("versions up to " + newest),
            refused.getMessage());
    }

    /** A checksummed binary file (magic long, version int, ..., CRC-32 trailer) with its version raised by one. */
    static byte[] raisedVersion(final byte[] file, final int version)
    {
        final ByteBuffer bytes = ByteBuffer.wrap(file.clone());
        assertEquals(version, bytes.getInt(8));
        bytes.putInt(8, version + 1);
        final CRC32 crc = new CRC32();
        crc.update(bytes.array(), 0, file.length - 4);
        return bytes.putInt(file.length - 4, (int)crc.getValue()).array();
    }

    /** A {@code name=value} text file with its {@code version=} line raised by one. */
    static String raisedTextVersion(final byte[] text, final int version)
    {
        final String was = new String(text, StandardCharsets.UTF_8);
        final String now = was.replace("\nversion=" + version + "\n", "\nversion=" + (version + 1) + "\n");
        assertTrue(!now.equals(was), was);
        return now;
    }

    private static long crc32c(final String body)
    {
        final CRC32C crc = new CRC32C();
        crc.update(body.getBytes(StandardCharsets.UTF_8));
        return crc.getValue();
    }
}
