package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.openhft.chronicle.bytes.Bytes;
import org.junit.jupiter.api.Test;

/**
 * {@link ResultEncoder} and {@link ResultDecoder} (through {@link OutputDecoder}): round trips with and
 * without a user aggregation's value, comparison (every field counts), and the bytes of the documented layout.
 */
class ResultCodecTest
{
    private static final StoredResult RESULT = new StoredResult(10_000, 20_000, 9, 3, -5, -7, 4, 2, 123, 99);

    private final ResultEncoder encoder = new ResultEncoder();
    private final OutputDecoder decoder = new OutputDecoder();

    @Test
    void roundTripsAResult()
    {
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        encoder.wrap(bytes, false).copy(RESULT);
        assertEquals(ResultEncoder.LENGTH, bytes.readRemaining());
        assertEquals(DocumentType.RESULT, decoder.wrap(bytes));
        assertTrue(decoder.isResult());
        assertFalse(decoder.isLate());
        assertFalse(decoder.result().hasAggregate());
        assertEquals(new StoredResult(10_000, 20_000, 9, 3, -5, -7, 4, 2, 123, 0), StoredResult.of(decoder.result()));
        assertTrue(decoder.result().matches(RESULT, false));
        assertFalse(decoder.result().matches(RESULT, true), "stored without an aggregate");
    }

    @Test
    void roundTripsAResultWithAnAggregate()
    {
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        encoder.wrap(bytes, true).copy(RESULT);
        assertEquals(ResultEncoder.WITH_AGGREGATE_LENGTH, bytes.readRemaining());
        assertEquals(DocumentType.RESULT, decoder.wrap(bytes));
        assertTrue(decoder.result().hasAggregate());
        assertEquals(RESULT, StoredResult.of(decoder.result()));
        assertTrue(decoder.result().matches(RESULT, true));
        assertFalse(decoder.result().matches(new StoredResult(10_000, 20_000, 9, 3, -5, -7, 4, 2, 123, 98), true), "another aggregate");
        assertFalse(decoder.result().matches(new StoredResult(10_000, 20_000, 9, 3, -5, -7, 4, 3, 123, 99), true), "another version");
    }

    @Test
    void aResultDifferingInAnyOneFieldDoesNotMatch()
    {
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        encoder.wrap(bytes, true).copy(RESULT);
        decoder.wrap(bytes);
        final StoredResult r = RESULT;
        final StoredResult[] differing = {
            new StoredResult(r.windowStart() + 1, r.windowEnd(), r.keyId(), r.count(), r.sum(), r.min(), r.max(), r.version(), r.sourceOffset(), r.aggregate()),
            new StoredResult(r.windowStart(), r.windowEnd() + 1, r.keyId(), r.count(), r.sum(), r.min(), r.max(), r.version(), r.sourceOffset(), r.aggregate()),
            new StoredResult(r.windowStart(), r.windowEnd(), r.keyId() + 1, r.count(), r.sum(), r.min(), r.max(), r.version(), r.sourceOffset(), r.aggregate()),
            new StoredResult(r.windowStart(), r.windowEnd(), r.keyId(), r.count() + 1, r.sum(), r.min(), r.max(), r.version(), r.sourceOffset(), r.aggregate()),
            new StoredResult(r.windowStart(), r.windowEnd(), r.keyId(), r.count(), r.sum() + 1, r.min(), r.max(), r.version(), r.sourceOffset(), r.aggregate()),
            new StoredResult(r.windowStart(), r.windowEnd(), r.keyId(), r.count(), r.sum(), r.min() + 1, r.max(), r.version(), r.sourceOffset(), r.aggregate()),
            new StoredResult(r.windowStart(), r.windowEnd(), r.keyId(), r.count(), r.sum(), r.min(), r.max() + 1, r.version(), r.sourceOffset(), r.aggregate()),
            new StoredResult(r.windowStart(), r.windowEnd(), r.keyId(), r.count(), r.sum(), r.min(), r.max(), r.version() + 1, r.sourceOffset(), r.aggregate()),
            new StoredResult(r.windowStart(), r.windowEnd(), r.keyId(), r.count(), r.sum(), r.min(), r.max(), r.version(), r.sourceOffset() + 1, r.aggregate()),
            new StoredResult(r.windowStart(), r.windowEnd(), r.keyId(), r.count(), r.sum(), r.min(), r.max(), r.version(), r.sourceOffset(), r.aggregate() + 1),
        };
        assertTrue(decoder.result().matches(RESULT, true));
        for (final StoredResult other : differing)
        {
            assertFalse(decoder.result().matches(other, true), "matched " + other);
        }
    }

    @Test
    void writesTheDocumentedLayout()
    {
        final Bytes<?> expected = Bytes.allocateElasticOnHeap();
        expected.writeByte(DocumentType.RESULT);
        expected.writeLong(RESULT.windowStart());
        expected.writeLong(RESULT.windowEnd());
        expected.writeLong(RESULT.count());
        expected.writeLong(RESULT.sum());
        expected.writeLong(RESULT.min());
        expected.writeLong(RESULT.max());
        expected.writeLong(RESULT.sourceOffset());
        expected.writeInt(RESULT.keyId());
        expected.writeInt(RESULT.version());
        expected.writeLong(RESULT.aggregate());
        final Bytes<?> actual = Bytes.allocateElasticOnHeap();
        encoder.wrap(actual, true).copy(RESULT);
        assertArrayEquals(expected.toByteArray(), actual.toByteArray());
    }

    @Test
    void aTruncatedResultIsNoOutput()
    {
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        encoder.wrap(bytes, false).copy(RESULT);
        bytes.readLimit(ResultEncoder.LENGTH - 1);
        assertEquals(0, decoder.wrap(bytes));
        assertFalse(decoder.isResult());
    }
}
