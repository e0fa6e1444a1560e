package dev.weir.journal;

/**
 * The fields of one window result, the row {@code window_start,window_end,key,count,sum,min,max,version}
 * with the source offset it covers and the user aggregation's value: what a {@link ResultEncoder} copies
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

    /** @return the source offset the result covers. */
    long sourceOffset();

    /** @return the user aggregation's value, or 0 without one. */
    long aggregate();
}
