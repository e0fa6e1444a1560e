package dev.weir.journal.codec;

/**
 * The fields of one window result, the row {@code window_start,window_end,key,count,sum,min,max,version}
 * with the source offset it covers and the user aggregations' values: what a {@link ResultEncoder} copies
 * and a {@link ResultDecoder} exposes. Implementations are flyweights, valid while their owner says so;
 * their thread-safety is theirs to state.
 */
public interface ResultFields
{
    /** @return inclusive window start, ms. */
    long windowStart();

    /** @return exclusive window end, ms. */
    long windowEnd();

    /** @return the key id. */
    int keyId();

    /** @return events aggregated. */
    long count();

    /** @return wrapping 64-bit sum of values. */
    long sum();

    /** @return least value. */
    long min();

    /** @return greatest value. */
    long max();

    /** @return 0 for a window's first firing, then one more for each re-firing. */
    int version();

    /**
     * @return what the row is: a final firing, an update or the early row; by default {@link ResultKind#FINAL}.
     */
    default ResultKind kind()
    {
        return ResultKind.FINAL;
    }

    /** @return the source offset the result covers. */
    long sourceOffset();

    /** @return the (first) user aggregation's value, or 0 without one. */
    long aggregate();

    /**
     * @return how many user aggregations' values the result carries; by default 1 ({@link #aggregate()}).
     */
    default int aggregateCount()
    {
        return 1;
    }

    /**
     * @param index 0 .. {@link #aggregateCount()} - 1.
     * @return that aggregation's value; by default {@link #aggregate()} for index 0.
     */
    default long aggregate(final int index)
    {
        assert index == 0 : "one aggregate unless the fields say otherwise";
        return aggregate();
    }
}
