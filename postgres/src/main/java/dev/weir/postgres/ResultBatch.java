package dev.weir.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Arrays;

import dev.weir.journal.KeyDictionary;
import dev.weir.journal.OutputConsumer;
import dev.weir.journal.OutputDecoder;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.ResultDecoder;

/**
 * The outputs of one delivery transaction: read from the output journal ({@link #fill}), the results held
 * by column and bound as ten arrays to the one upsert statement of {@link SinkConnection} (which unnests
 * them, keeps the highest version of each window in the batch, and upserts): one statement per
 * transaction instead of one per row. Late events are passed over but counted, and their offsets covered.
 * Not thread-safe: the delivering thread owns it.
 */
final class ResultBatch implements OutputConsumer
{
    private final KeyDictionary keyNames;
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
    private int outputs;
    private long maxSource;

    ResultBatch(final KeyDictionary keyNames, final int capacity)
    {
        this.keyNames = keyNames;
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

    /**
     * Empty the batch, then read up to {@code most} outputs after the journal's read cursor.
     *
     * @param output       the output journal, its cursor where the delivery stands.
     * @param most         the most outputs to read.
     * @param sourceOffset the event offset covered so far.
     * @return outputs read (results and late events); 0 at the end of the journal.
     */
    int fill(final OutputJournal output, final int most, final long sourceOffset)
    {
        Arrays.fill(keys, 0, size, null);
        Arrays.fill(aggregates, 0, size, null);
        size = 0;
        outputs = 0;
        maxSource = sourceOffset;
        while (outputs < most && output.next(this) != 0)
        {
            outputs++;
        }
        return outputs;
    }

    /**
     * @return the highest event offset the outputs read so far cover.
     */
    long maxSource()
    {
        return maxSource;
    }

    @Override
    public void onOutput(final OutputDecoder stored)
    {
        if (stored.isResult())
        {
            add(stored.result());
        }
        else
        {
            maxSource = Math.max(maxSource, stored.late().offset());
        }
    }

    private void add(final ResultDecoder r)
    {
        keys[size] = keyNames.name(r.keyId());
        starts[size] = r.windowStart();
        ends[size] = r.windowEnd();
        counts[size] = r.count();
        sums[size] = r.sum();
        mins[size] = r.min();
        maxes[size] = r.max();
        versions[size] = r.version();
        sources[size] = r.sourceOffset();
        aggregates[size] = r.hasAggregate() ? r.aggregate() : null;
        size++;
        maxSource = Math.max(maxSource, r.sourceOffset());
    }

    /**
     * @return results in the batch.
     */
    int size()
    {
        return size;
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
