package dev.weir.journal.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.openhft.chronicle.bytes.Bytes;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * {@link EventEncoder} and {@link EventDecoder}: round trips of both event types with and without the
 * ingest trailers, through the flyweight and through the scan's {@link EventDecoder#read}, and the bytes
 * of the documented layout.
 */
class EventCodecTest
{
    private final EventEncoder encoder = new EventEncoder();
    private final EventDecoder decoder = new EventDecoder();

    @Test
    void roundTripsAnEventWithoutTrailers()
    {
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        encoder.wrap(bytes, false).eventId(7).eventTime(1_700_000_000_000L).value(-42).keyId(3);
        assertEquals(EventEncoder.LENGTH, bytes.readRemaining());
        assertTrue(decoder.wrap(bytes));
        assertFalse(decoder.hasKey());
        assertEquals(7, decoder.eventId());
        assertEquals(1_700_000_000_000L, decoder.eventTime());
        assertEquals(-42, decoder.value());
        assertEquals(3, decoder.keyId());
        assertNull(decoder.key());
        assertEquals(-1, decoder.line());
        assertEquals(-1, decoder.unterminatedLength());
        assertEquals(0, bytes.readPosition(), "decoding leaves the read position");
    }

    @Test
    void roundTripsANewKeyWithItsLineAndUnterminatedLength()
    {
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        encoder.wrap(bytes, true).eventId(Long.MAX_VALUE).eventTime(0).value(Long.MIN_VALUE).keyId(Integer.MAX_VALUE).key("k\u00e9y")
            .line(123_456).unterminatedLength(17);
        assertTrue(decoder.wrap(bytes));
        assertTrue(decoder.hasKey());
        assertEquals(Long.MAX_VALUE, decoder.eventId());
        assertEquals(Long.MIN_VALUE, decoder.value());
        assertEquals(Integer.MAX_VALUE, decoder.keyId());
        assertEquals("k\u00e9y", decoder.key());
        assertEquals(123_456, decoder.line());
        assertEquals(17, decoder.unterminatedLength());
    }

    @Test
    void aLineWithoutUnterminatedLengthHasNone()
    {
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        encoder.wrap(bytes, false).eventId(1).eventTime(2).value(3).keyId(4).line(0);
        assertTrue(decoder.wrap(bytes));
        assertEquals(0, decoder.line());
        assertEquals(-1, decoder.unterminatedLength());
    }

    @Test
    void theScanReadHandsOverTheFixedFieldsOfBothEventTypes()
    {
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        encoder.wrap(bytes, false).eventId(7).eventTime(1_700_000_000_000L).value(-42).keyId(3).line(9);
        encoder.wrap(bytes, true).eventId(Long.MAX_VALUE).eventTime(0).value(Long.MIN_VALUE).keyId(Integer.MAX_VALUE).key("k\u00e9y");
        final long[] read = new long[5];
        final EventConsumer consumer = (offset, eventId, eventTime, keyId, value) ->
        {
            read[0] = offset;
            read[1] = eventId;
            read[2] = eventTime;
            read[3] = keyId;
            read[4] = value;
        };
        assertTrue(EventDecoder.read(bytes, 100, consumer));
        assertArrayEquals(new long[] {100, 7, 1_700_000_000_000L, 3, -42}, read);
        assertEquals(EventEncoder.LENGTH, bytes.readPosition(), "the fixed fields are consumed, the trailer is not");
        bytes.readStopBit();
        assertTrue(EventDecoder.read(bytes, 101, consumer));
        assertArrayEquals(new long[] {101, Long.MAX_VALUE, 0, Integer.MAX_VALUE, Long.MIN_VALUE}, read);
    }

    @Test
    void theScanReadRefusesOtherDocumentsAndLeavesThemUnread()
    {
        final EventConsumer none = (offset, eventId, eventTime, keyId, value) -> Assertions.fail("not an event");
        final Bytes<?> late = Bytes.allocateElasticOnHeap();
        new LateEventEncoder().wrap(late).eventId(1);
        assertFalse(EventDecoder.read(late, 0, none), "a late event");
        assertEquals(0, late.readPosition());
        final Bytes<?> shortEvent = Bytes.allocateElasticOnHeap();
        shortEvent.writeByte(DocumentType.EVENT);
        shortEvent.writeLong(1);
        assertFalse(EventDecoder.read(shortEvent, 0, none), "a truncated event");
        assertEquals(0, shortEvent.readPosition());
    }

    @Test
    void writesTheDocumentedLayout()
    {
        final Bytes<?> expected = Bytes.allocateElasticOnHeap();
        expected.writeByte(DocumentType.EVENT_NEW_KEY);
        expected.writeLong(11);
        expected.writeLong(22);
        expected.writeLong(33);
        expected.writeInt(44);
        expected.writeUtf8("a");
        expected.writeStopBit(5);
        final Bytes<?> actual = Bytes.allocateElasticOnHeap();
        encoder.wrap(actual, true).keyId(44).value(33).eventTime(22).eventId(11).key("a").line(5);
        assertArrayEquals(expected.toByteArray(), actual.toByteArray());
    }

    @Test
    void refusesOtherDocuments()
    {
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        new LateEventEncoder().wrap(bytes).eventId(1);
        assertFalse(decoder.wrap(bytes), "a late event");
        final Bytes<?> shortEvent = Bytes.allocateElasticOnHeap();
        shortEvent.writeByte(DocumentType.EVENT);
        shortEvent.writeLong(1);
        assertFalse(decoder.wrap(shortEvent), "a truncated event");
    }
}
