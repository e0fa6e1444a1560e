package dev.weir.peers;

import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.java.tuple.Tuple4;

/**
 * Count, sum, min and max of a window's values in one {@code long[4]} accumulator, updated in place. Stateless.
 */
final class WindowStats implements AggregateFunction<Tuple4<Long, Long, String, Long>, long[], long[]>
{
    private static final long serialVersionUID = 1L;

    @Override
    public long[] createAccumulator()
    {
        return new long[] {0, 0, Long.MAX_VALUE, Long.MIN_VALUE};
    }

    @Override
    public long[] add(final Tuple4<Long, Long, String, Long> event, final long[] acc)
    {
        final long value = event.f3;
        acc[0]++;
        acc[1] += value;
        acc[2] = Math.min(acc[2], value);
        acc[3] = Math.max(acc[3], value);
        return acc;
    }

    @Override
    public long[] getResult(final long[] acc)
    {
        return acc;
    }

    @Override
    public long[] merge(final long[] a, final long[] b)
    {
        a[0] += b[0];
        a[1] += b[1];
        a[2] = Math.min(a[2], b[2]);
        a[3] = Math.max(a[3], b[3]);
        return a;
    }
}
