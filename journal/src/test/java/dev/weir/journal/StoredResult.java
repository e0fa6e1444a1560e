package dev.weir.journal;

import dev.weir.journal.codec.ResultFields;

/**
 * A result's fields as an immutable value, for tests that write or compare results.
 *
 * @param windowStart  inclusive window start.
 * @param windowEnd    exclusive window end.
 * @param keyId        key id.
 * @param count        count.
 * @param sum          sum.
 * @param min          min.
 * @param max          max.
 * @param version      version.
 * @param sourceOffset the source offset covered.
 * @param aggregate    the user aggregation's value, or 0.
 */
record StoredResult(long windowStart, long windowEnd, int keyId, long count, long sum, long min, long max, int version, long sourceOffset,
                    long aggregate) implements ResultFields
{
    /**
     * @param result a result, e.g. a decoder's.
     * @return a copy of its fields.
     */
    static StoredResult of(final ResultFields result)
    {
        return new StoredResult(result.windowStart(), result.windowEnd(), result.keyId(), result.count(), result.sum(), result.min(),
            result.max(), result.version(), result.sourceOffset(), result.aggregate());
    }
}
