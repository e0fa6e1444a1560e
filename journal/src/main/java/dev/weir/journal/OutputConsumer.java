package dev.weir.journal;

/**
 * Receives documents read from the output journal, primitive arguments only, on the reading thread.
 */
public interface OutputConsumer
{
    /**
     * @param windowStart  inclusive window start.
     * @param windowEnd    exclusive window end.
     * @param keyId        key id.
     * @param count        count.
     * @param sum          sum.
     * @param min          min.
     * @param max          max.
     * @param version      version.
     * @param sourceOffset the source offset covered.
     */
    void onResult(long windowStart, long windowEnd, int keyId, long count, long sum, long min, long max, int version, long sourceOffset);

    /**
     * A result with what the output journal may carry beyond the row: the user aggregation's value.
     * By default, passes the row to {@link #onResult(long, long, int, long, long, long, long, int, long)}.
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
     * @param hasAggregate true if the result carries a user aggregation's value.
     * @param aggregate    that value, or 0.
     */
    default void onResult(
        final long windowStart,
        final long windowEnd,
        final int keyId,
        final long count,
        final long sum,
        final long min,
        final long max,
        final int version,
        final long sourceOffset,
        final boolean hasAggregate,
        final long aggregate)
    {
        onResult(windowStart, windowEnd, keyId, count, sum, min, max, version, sourceOffset);
    }

    /**
     * @param eventId   event id.
     * @param eventTime event time.
     * @param keyId     key id.
     * @param value     value.
     * @param offset    the event's journal offset.
     */
    void onLate(long eventId, long eventTime, int keyId, long value, long offset);
}
