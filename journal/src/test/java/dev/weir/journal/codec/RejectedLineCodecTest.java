package dev.weir.journal.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.openhft.chronicle.bytes.Bytes;
import org.junit.jupiter.api.Test;

/**
 * {@link RejectedLineEncoder} and {@link RejectedLineDecoder}: round trips with and without the
 * unterminated-length trailer, and the bytes of the documented layout.
 */
class RejectedLineCodecTest
{
    private final RejectedLineEncoder encoder = new RejectedLineEncoder();
    private final RejectedLineDecoder decoder = new RejectedLineDecoder();

    @Test
    void roundTripsARejectedLine()
    {
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        encoder.wrap(bytes).line(12).reason("bad value").content("a,b,\u00fc").unterminatedLength(-1);
        assertTrue(decoder.wrap(bytes));
        assertEquals(12, decoder.line());
        assertEquals("bad value", decoder.reason());
        assertEquals("a,b,\u00fc", decoder.content());
        assertEquals(-1, decoder.unterminatedLength());
    }

    @Test
    void roundTripsAnUnterminatedLastLine()
    {
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        encoder.wrap(bytes).line(3).reason("r").content("xyz").unterminatedLength(3);
        assertTrue(decoder.wrap(bytes));
        assertEquals(3, decoder.unterminatedLength());
    }

    @Test
    void writesTheDocumentedLayout()
    {
        final Bytes<?> expected = Bytes.allocateElasticOnHeap();
        expected.writeByte(DocumentType.REJECTED_LINE);
        expected.writeLong(8);
        expected.writeUtf8("why");
        expected.writeUtf8("what");
        expected.writeStopBit(4);
        final Bytes<?> actual = Bytes.allocateElasticOnHeap();
        encoder.wrap(actual).line(8).reason("why").content("what").unterminatedLength(4);
        assertArrayEquals(expected.toByteArray(), actual.toByteArray());
    }

    @Test
    void refusesOtherDocuments()
    {
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        new EventEncoder().wrap(bytes, false).eventId(1);
        assertFalse(decoder.wrap(bytes));
    }
}
