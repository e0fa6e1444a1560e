package dev.weir.journal.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.openhft.chronicle.bytes.Bytes;
import org.junit.jupiter.api.Test;

/**
 * {@link LateEventEncoder} and {@link LateEventDecoder} (through {@link OutputDecoder}): a round trip and
 * the bytes of the documented layout.
 */
class LateEventCodecTest
{
    private final LateEventEncoder encoder = new LateEventEncoder();
    private final OutputDecoder decoder = new OutputDecoder();

    @Test
    void roundTripsALateEvent()
    {
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        encoder.wrap(bytes).eventId(5).eventTime(6_000).value(-7).offset(8).keyId(9);
        assertEquals(LateEventEncoder.LENGTH, bytes.readRemaining());
        assertEquals(DocumentType.LATE_EVENT, decoder.wrap(bytes));
        assertTrue(decoder.isLate());
        assertFalse(decoder.isResult());
        final LateEventDecoder late = decoder.late();
        assertEquals(5, late.eventId());
        assertEquals(6_000, late.eventTime());
        assertEquals(-7, late.value());
        assertEquals(8, late.offset());
        assertEquals(9, late.keyId());
    }

    @Test
    void writesTheDocumentedLayout()
    {
        final Bytes<?> expected = Bytes.allocateElasticOnHeap();
        expected.writeByte(DocumentType.LATE_EVENT);
        expected.writeLong(1);
        expected.writeLong(2);
        expected.writeLong(3);
        expected.writeLong(4);
        expected.writeInt(5);
        final Bytes<?> actual = Bytes.allocateElasticOnHeap();
        encoder.wrap(actual).keyId(5).offset(4).value(3).eventTime(2).eventId(1);
        assertArrayEquals(expected.toByteArray(), actual.toByteArray());
    }
}
