package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.openhft.chronicle.bytes.Bytes;
import org.junit.jupiter.api.Test;

import dev.weir.journal.codec.DocumentType;
import dev.weir.journal.codec.OutputDecoder;
import dev.weir.journal.codec.ResultDecoder;
import dev.weir.journal.codec.ResultEncoder;
import dev.weir.journal.codec.ResultFields;
import dev.weir.journal.codec.ResultKind;

/**
 * {@link ResultEncoder} and {@link ResultDecoder} (through {@link OutputDecoder}): round trips with no,
 * one and several user aggregations' values, comparison (every field counts), and the bytes of the
 * documented layout (a document of one aggregation is the 73 bytes it was before several existed).
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
        assertEquals(0, decoder.result().aggregateCount());
        assertEquals(new StoredResult(10_000, 20_000, 9, 3, -5, -7, 4, 2, 123, 0), StoredResult.of(decoder.result()));
        assertTrue(decoder.result().matches(RESULT, false));
        assertFalse(decoder.result().matches(RESULT, true), "stored without an aggregate");
    }

    @Test
    void updateAndEarlyRowsAreResultsOfTheirOwnDocumentTypeAndKind()
    {
        for (final ResultKind kind : ResultKind.values())
        {
            final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
            final ResultFields ofKind = Variant.ofKind(RESULT, kind);
            encoder.wrap(bytes, 1).copy(ofKind);
            assertEquals(ResultEncoder.WITH_AGGREGATE_LENGTH, bytes.readRemaining(), "the layout of a result");
            assertEquals(kind.documentType(), decoder.wrap(bytes));
            assertTrue(decoder.isResult());
            assertEquals(kind, decoder.result().kind());
            assertEquals(RESULT, StoredResult.of(decoder.result()));
            assertTrue(decoder.result().matches(ofKind, 1));
            for (final ResultKind other : ResultKind.values())
            {
                assertEquals(other == kind, decoder.result().matches(Variant.ofKind(RESULT, other), 1), kind + " stored, " + other + " reproduced");
            }
        }
        assertEquals(8, DocumentType.RESULT_UPDATE);
        assertEquals(9, DocumentType.RESULT_EARLY);
        assertEquals(ResultKind.FINAL, RESULT.kind(), "a result is final unless it says otherwise");
    }

    @Test
    void roundTripsAResultWithAnAggregate()
    {
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        encoder.wrap(bytes, true).copy(RESULT);
        assertEquals(ResultEncoder.WITH_AGGREGATE_LENGTH, bytes.readRemaining());
        assertEquals(DocumentType.RESULT, decoder.wrap(bytes));
        assertTrue(decoder.result().hasAggregate());
        assertEquals(1, decoder.result().aggregateCount());
        assertEquals(99, decoder.result().aggregate(0));
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
    void roundTripsAResultWithThreeAggregates()
    {
        final Variant three = Variant.withAggregates(RESULT, 99, -1, Long.MIN_VALUE);
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        encoder.wrap(bytes, 3).copy(three);
        assertEquals(ResultEncoder.LENGTH + 3 * 8, bytes.readRemaining());
        assertEquals(DocumentType.RESULT, decoder.wrap(bytes));
        final ResultDecoder stored = decoder.result();
        assertEquals(3, stored.aggregateCount());
        assertEquals(99, stored.aggregate(0));
        assertEquals(-1, stored.aggregate(1));
        assertEquals(Long.MIN_VALUE, stored.aggregate(2));
        assertEquals(99, stored.aggregate(), "the first");
        assertEquals(RESULT, StoredResult.of(stored));
        assertTrue(stored.matches(three, 3));
        assertFalse(stored.matches(Variant.withAggregates(RESULT, 99, -1, 0), 3), "another third aggregate");
        assertFalse(stored.matches(Variant.withAggregates(RESULT, 99, 0, Long.MIN_VALUE), 3), "another second aggregate");
        assertFalse(stored.matches(three, 2), "stored with three aggregates, not two");
        assertFalse(stored.matches(RESULT, true), "stored with three aggregates, not one");
        assertTrue(stored.toString().endsWith(" aggregates 99,-1," + Long.MIN_VALUE), stored.toString());
    }

    @Test
    void writesTheDocumentedLayoutOfSeveralAggregatesAndOneAsBefore()
    {
        final Variant three = Variant.withAggregates(RESULT, 7, 8, 9);
        final Bytes<?> expected = Bytes.allocateElasticOnHeap();
        encoder.wrap(expected, false).copy(RESULT);
        expected.writeLong(7).writeLong(8).writeLong(9);
        final Bytes<?> actual = Bytes.allocateElasticOnHeap();
        encoder.wrap(actual, 3).copy(three);
        assertArrayEquals(expected.toByteArray(), actual.toByteArray());

        final Bytes<?> one = Bytes.allocateElasticOnHeap();
        encoder.wrap(one, 1).copy(RESULT);
        final Bytes<?> before = Bytes.allocateElasticOnHeap();
        encoder.wrap(before, true).copy(RESULT);
        assertEquals(ResultEncoder.WITH_AGGREGATE_LENGTH, one.readRemaining());
        assertArrayEquals(before.toByteArray(), one.toByteArray(), "one aggregate: the document of before");
        final Bytes<?> none = Bytes.allocateElasticOnHeap();
        encoder.wrap(none, 0).copy(RESULT);
        assertEquals(ResultEncoder.LENGTH, none.readRemaining());
    }

    @Test
    void aResultCarriesAtMostTheMostAggregates()
    {
        assertEquals(ResultEncoder.MAX_AGGREGATES, ResultEncoder.aggregates(ResultEncoder.length(ResultEncoder.MAX_AGGREGATES)));
        assertEquals(1, ResultEncoder.aggregates(ResultEncoder.WITH_AGGREGATE_LENGTH));
        assertEquals(0, ResultEncoder.aggregates(ResultEncoder.LENGTH));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
            () -> encoder.wrap(Bytes.allocateElasticOnHeap(), ResultEncoder.MAX_AGGREGATES + 1));
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

    /** A result's fields with several aggregates. */
    /**
     * A stored result's fields with another kind or other aggregates.
     *
     * @param fields the result.
     * @param kind   the kind to report.
     * @param values the aggregates to report, or null for the result's own.
     */
    private record Variant(ResultFields fields, ResultKind kind, long[] values) implements ResultFields
    {
        static Variant ofKind(final ResultFields fields, final ResultKind kind)
        {
            return new Variant(fields, kind, null);
        }

        static Variant withAggregates(final ResultFields fields, final long... values)
        {
            return new Variant(fields, fields.kind(), values);
        }

        @Override
        public long windowStart()
        {
            return fields.windowStart();
        }

        @Override
        public long windowEnd()
        {
            return fields.windowEnd();
        }

        @Override
        public int keyId()
        {
            return fields.keyId();
        }

        @Override
        public long count()
        {
            return fields.count();
        }

        @Override
        public long sum()
        {
            return fields.sum();
        }

        @Override
        public long min()
        {
            return fields.min();
        }

        @Override
        public long max()
        {
            return fields.max();
        }

        @Override
        public int version()
        {
            return fields.version();
        }

        @Override
        public long sourceOffset()
        {
            return fields.sourceOffset();
        }

        @Override
        public long aggregate()
        {
            return values == null ? fields.aggregate() : values[0];
        }

        @Override
        public int aggregateCount()
        {
            return values == null ? fields.aggregateCount() : values.length;
        }

        @Override
        public long aggregate(final int index)
        {
            return values == null ? fields.aggregate(index) : values[index];
        }
    }
}
