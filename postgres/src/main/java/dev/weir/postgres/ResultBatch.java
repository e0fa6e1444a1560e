package dev.weir.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * The results of one delivery transaction, held by column, bound as ten arrays to the one upsert
 * statement of {@link SinkConnection} (which unnests them, keeps the highest version of each window
 * in the batch, and upserts). One statement per transaction instead of one per row. Not thread-safe:
 * the delivering thread owns it.
 */
final class ResultBatch
{
    private final String[] keys;
    private final long[] starts;
    private final long[] ends;
    private final long[] counts;
    private final long[] sums;
    private final long[] mins;
    private final long[] maxes;
    private final int[] versions;
    private final long[] sources;
    private final Long[] aggregates;
    private int size;

    ResultBatch(final int capacity)
    {
        keys = new String[capacity];
        starts = new long[capacity];
        ends = new long[capacity];
        counts = new long[capacity];
        sums = new long[capacity];
        mins = new long[capacity];
        maxes = new long[capacity];
        versions = new int[capacity];
        sources = new long[capacity];
        aggregates = new Long[capacity];
    }

    void add(
        final String key, final long start, final long end, final long count, final long sum, final long min, final long max,
        final int version, final long source, final Long aggregate)
    {
        keys[size] = key;
        starts[size] = start;
        ends[size] = end;
        counts[size] = count;
        sums[size] = sum;
        mins[size] = min;
        maxes[size] = max;
        versions[size] = version;
        sources[size] = source;
        aggregates[size] = aggregate;
        size++;
    }

    int size()
    {
        return size;
    }

    void clear()
    {
        Arrays.fill(keys, 0, size, null);
        Arrays.fill(aggregates, 0, size, null);
        size = 0;
    }

    /**
     * Bind the batch to the upsert and run it.
     *
     * @param connection the connection (to make the text and nullable arrays).
     * @param upsert     {@link SinkConnection#upsert}.
     * @return rows inserted or raised to a higher version.
     * @throws SQLException if it fails.
     */
    int upsert(final Connection connection, final PreparedStatement upsert) throws SQLException
    {
        upsert.setArray(1, connection.createArrayOf("text", Arrays.copyOf(keys, size)));
        upsert.setObject(2, Arrays.copyOf(starts, size));
        upsert.setObject(3, Arrays.copyOf(ends, size));
        upsert.setObject(4, Arrays.copyOf(counts, size));
        upsert.setObject(5, Arrays.copyOf(sums, size));
        upsert.setObject(6, Arrays.copyOf(mins, size));
        upsert.setObject(7, Arrays.copyOf(maxes, size));
        upsert.setObject(8, Arrays.copyOf(versions, size));
        upsert.setObject(9, Arrays.copyOf(sources, size));
        upsert.setArray(10, connection.createArrayOf("bigint", Arrays.copyOf(aggregates, size)));
        return upsert.executeUpdate();
    }
}
