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
     * @param eventId   event id.
     * @param eventTime event time.
     * @param keyId     key id.
     * @param value     value.
     * @param offset    the event's journal offset.
     */
    void onLate(long eventId, long eventTime, int keyId, long value, long offset);
}
