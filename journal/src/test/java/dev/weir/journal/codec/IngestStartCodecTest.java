package dev.weir.journal.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.openhft.chronicle.bytes.Bytes;
import org.junit.jupiter.api.Test;

/**
 * {@link IngestStartEncoder} and {@link IngestStartDecoder}: a round trip, an ingest start written before
 * lines were tagged, and the bytes of the documented layout.
 */
class IngestStartCodecTest
{
    private final IngestStartDecoder decoder = new IngestStartDecoder();

    @Test
    void roundTripsAnIngestStart()
    {
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        new IngestStartEncoder().wrap(bytes).firstLine(41).source("file:/tmp/in.csv");
        assertTrue(decoder.wrap(bytes));
        assertEquals(41, decoder.firstLine());
        assertEquals("file:/tmp/in.csv", decoder.source());
        assertTrue(decoder.linesTagged());
        assertEquals(0, bytes.readPosition(), "decoding leaves the read position");
    }

    @Test
    void anOldIngestStartHasUntaggedLines()
    {
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        bytes.writeByte(DocumentType.INGEST_START);
        bytes.writeLong(2);
        bytes.writeUtf8("old");
        assertTrue(decoder.wrap(bytes));
        assertEquals("old", decoder.source());
        assertFalse(decoder.linesTagged());
    }

    @Test
    void writesTheDocumentedLayout()
    {
        final Bytes<?> expected = Bytes.allocateElasticOnHeap();
        expected.writeByte(DocumentType.INGEST_START);
        expected.writeLong(3);
        expected.writeUtf8("s");
        expected.writeByte((byte)1);
        final Bytes<?> actual = Bytes.allocateElasticOnHeap();
        new IngestStartEncoder().wrap(actual).firstLine(3).source("s");
        assertArrayEquals(expected.toByteArray(), actual.toByteArray());
    }

    @Test
    void refusesOtherDocuments()
    {
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        new RejectedLineEncoder().wrap(bytes).line(1).reason("r").content("c");
        assertFalse(decoder.wrap(bytes));
    }
}
