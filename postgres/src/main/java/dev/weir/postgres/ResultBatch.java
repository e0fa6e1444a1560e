package dev.weir.postgres;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Arrays;

import dev.weir.journal.OutputConsumer;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.codec.OutputDecoder;
import dev.weir.journal.codec.ResultDecoder;
import dev.weir.journal.codec.ResultKind;
import dev.weir.journal.schema.ColumnType;

/**
 * The outputs of one delivery transaction: read from the output journal ({@link #fill}), the results held
 * by column and bound as arrays, one per column of the {@link ResultsTableShape} in table order, to the one
 * statement of {@link BatchUpsert} (which unnests them, keeps the highest version of each window in the
 * batch, replaces the rows they supersede, and upserts): one statement per transaction instead of one per row. Key columns are text,
 * bigint or numeric arrays; sum, min and max are bigint arrays of a long value column, or numeric arrays of
 * the exact decimals of a decimal one; the aggregate likewise, by its scale. With named aggregates the batch holds
 * instead one bigint or numeric array per aggregate, by its scale, NULL where the stored result's presence mask (its
 * last aggregate long) says the window has no value for it. Late events are held for the
 * late-events table ({@link #insertLate}) if there is one, else passed over; update rows are passed over; both are
 * counted, and their offsets covered; an early row is held with version -1 and its early
 * flag (a table with the {@code early} column). Not thread-safe: the delivering thread owns it.
 */
final class ResultBatch implements OutputConsumer
{
    private final KeyFields keyFields;
    private final ResultsTableShape shape;
    /** Per key column: String[], Long[] or BigDecimal[] by its type. */
    private final Object[][] keys;
    private final String[] keyArrayTypes;
    private final long[] starts;
    private final long[] ends;
    private final long[] counts;
    private final long[] sums;
    private final long[] mins;
    private final long[] maxes;
    private final int[] versions;
    private final long[] sources;
    private final Long[] aggregates;
    /** Per named aggregate: Long[] at scale 0, else BigDecimal[]; null elements where empty. Empty without named aggregates. */
    private final Object[][] named;
    private final Boolean[] early;
    private int size;
    private int outputs;
    private long maxSource;
    /** The late events of the batch, when they are delivered (a late-events table), else null. */
    private final LateEventsTable late;
    private final int[] lateKeys;
    private final long[] lateIds;
    private final long[] lateTimes;
    private final long[] lateValues;
    private final long[] lateOffsets;
    private int lateSize;

    ResultBatch(final KeyFields keyFields, final ResultsTableShape shape, final int capacity)
    {
        this(keyFields, shape, null, capacity);
    }

    /**
     * @param keyFields the key columns' values.
     * @param shape     the results table's shape.
     * @param late      the late-events table, or null to pass late events over.
     * @param capacity  the most outputs of a batch.
     */
    ResultBatch(final KeyFields keyFields, final ResultsTableShape shape, final LateEventsTable late, final int capacity)
    {
        this.late = late;
        final int lateCapacity = late == null ? 0 : capacity;
        lateKeys = new int[lateCapacity];
        lateIds = new long[lateCapacity];
        lateTimes = new long[lateCapacity];
        lateValues = new long[lateCapacity];
        lateOffsets = new long[lateCapacity];
        this.keyFields = keyFields;
        this.shape = shape;
        keys = new Object[shape.keyArity()][];
        keyArrayTypes = new String[shape.keyArity()];
        for (int i = 0; i < keys.length; i++)
        {
            final ColumnType type = shape.schema().column(shape.keyColumn(i)).type();
            keys[i] = type == ColumnType.STRING ? new String[capacity] : type == ColumnType.LONG ? new Long[capacity] : new BigDecimal[capacity];
            keyArrayTypes[i] = type == ColumnType.STRING ? "text" : type == ColumnType.LONG ? "bigint" : "numeric";
        }
        starts = new long[capacity];
        ends = new long[capacity];
        counts = new long[capacity];
        sums = new long[capacity];
        mins = new long[capacity];
        maxes = new long[capacity];
        versions = new int[capacity];
        sources = new long[capacity];
        aggregates = new Long[capacity];
        named = new Object[shape.namedAggregateCount()][];
        for (int i = 0; i < named.length; i++)
        {
            named[i] = shape.namedAggregateScale(i) == 0 ? new Long[capacity] : new BigDecimal[capacity];
        }
        early = shape.hasEarly() ? new Boolean[capacity] : null;
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
        for (final Object[] column : keys)
        {
            Arrays.fill(column, 0, size, null);
        }
        for (final Object[] column : named)
        {
            Arrays.fill(column, 0, size, null);
        }
        Arrays.fill(aggregates, 0, size, null);
        size = 0;
        lateSize = 0;
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
        if (stored.isResult() && stored.result().kind() != ResultKind.UPDATE)
        {
            add(stored.result());
        }
        else if (stored.isResult())
        {
            maxSource = Math.max(maxSource, stored.result().sourceOffset()); // update rows are not delivered
        }
        else
        {
            final dev.weir.journal.codec.LateEventDecoder event = stored.late();
            maxSource = Math.max(maxSource, event.offset());
            if (late != null)
            {
                lateKeys[lateSize] = event.keyId();
                lateIds[lateSize] = event.eventId();
                lateTimes[lateSize] = event.eventTime();
                lateValues[lateSize] = event.value();
                lateOffsets[lateSize] = event.offset();
                lateSize++;
            }
        }
    }

    /**
     * @return late events in the batch (0 when they are passed over).
     */
    int lateSize()
    {
        return lateSize;
    }

    /**
     * Insert the batch's late events ({@link LateEventsTable#insert()}: one that is there already is left as it is).
     *
     * @param insert {@link SinkConnection#insertLate}.
     * @return rows inserted.
     * @throws SQLException if it fails.
     */
    long insertLate(final PreparedStatement insert) throws SQLException
    {
        for (int row = 0; row < lateSize; row++)
        {
            int p = 1;
            insert.setString(p++, late.resultsTable());
            for (int i = 0; i < keys.length; i++)
            {
                insert.setObject(p++, keyFields.value(lateKeys[row], i));
            }
            final Object value = late.value(lateValues[row]);
            if (value == null)
            {
                insert.setNull(p++, Types.BIGINT); // a pipeline with named aggregates: its events have no value
            }
            else
            {
                insert.setObject(p++, value);
            }
            insert.setLong(p++, lateIds[row]);
            insert.setLong(p++, lateTimes[row]);
            insert.setLong(p, lateOffsets[row]);
            insert.addBatch();
        }
        long inserted = 0;
        for (final int count : insert.executeBatch())
        {
            inserted += Math.max(count, 0);
        }
        return inserted;
    }

    private void add(final ResultDecoder r)
    {
        for (int i = 0; i < keys.length; i++)
        {
            keys[i][size] = keyFields.value(r.keyId(), i);
        }
        starts[size] = r.windowStart();
        ends[size] = r.windowEnd();
        counts[size] = r.count();
        sums[size] = r.sum();
        mins[size] = r.min();
        maxes[size] = r.max();
        final boolean isEarly = r.kind() == ResultKind.EARLY;
        versions[size] = isEarly ? ResultsTableShape.EARLY_VERSION : r.version();
        if (early != null)
        {
            early[size] = isEarly;
        }
        sources[size] = r.sourceOffset();
        if (named.length > 0)
        {
            addNamed(r);
        }
        else
        {
            aggregates[size] = r.hasAggregate() ? r.aggregate() : null;
        }
        size++;
        maxSource = Math.max(maxSource, r.sourceOffset());
    }

    /** Hold the named aggregates' values of a stored result: N values, then the presence mask. */
    private void addNamed(final ResultDecoder r)
    {
        if (r.aggregateCount() != named.length + 1)
        {
            throw new SinkRefusedException("a result of the output journal carries " + r.aggregateCount() + " aggregate values, and this "
                + "pipeline's table has columns for " + named.length + " named aggregates (" + shape.describe() + "): it is not this pipeline's");
        }
        final long presence = r.aggregate(named.length);
        for (int i = 0; i < named.length; i++)
        {
            final boolean present = (presence & 1L << i) != 0;
            final int scale = shape.namedAggregateScale(i);
            final long unscaled = r.aggregate(i);
            named[i][size] = !present ? null : scale == 0 ? (Object) unscaled : BigDecimal.valueOf(unscaled, scale);
        }
    }

    /**
     * @return results in the batch.
     */
    int size()
    {
        return size;
    }

    /**
     * Bind the batch to the upsert ({@link BatchUpsert}) and run it.
     *
     * @param connection the connection (to make the text, numeric and nullable arrays).
     * @param upsert     {@link SinkConnection#upsert}.
     * @return {rows inserted or raised to a higher version, rows deleted as superseded}.
     * @throws SQLException if it fails.
     */
    long[] upsert(final Connection connection, final PreparedStatement upsert) throws SQLException
    {
        int p = 1;
        for (int i = 0; i < keys.length; i++)
        {
            upsert.setArray(p++, connection.createArrayOf(keyArrayTypes[i], Arrays.copyOf(keys[i], size)));
        }
        upsert.setObject(p++, Arrays.copyOf(starts, size));
        upsert.setObject(p++, Arrays.copyOf(ends, size));
        p = named.length > 0 ? bindNamed(connection, upsert, p) : bindValues(connection, upsert, p);
        upsert.setObject(p++, Arrays.copyOf(versions, size));
        upsert.setObject(p++, Arrays.copyOf(sources, size));
        if (named.length == 0)
        {
            bindAggregate(connection, upsert, p++);
        }
        if (early != null)
        {
            upsert.setArray(p, connection.createArrayOf("boolean", Arrays.copyOf(early, size)));
        }
        try (ResultSet counts = upsert.executeQuery())
        {
            counts.next();
            return new long[] {counts.getLong(1), counts.getLong(2)};
        }
    }

    /** Bind one array per named aggregate from parameter {@code p} on; return the next parameter. */
    private int bindNamed(final Connection connection, final PreparedStatement upsert, final int p) throws SQLException
    {
        for (int i = 0; i < named.length; i++)
        {
            upsert.setArray(p + i, connection.createArrayOf(shape.namedAggregateScale(i) == 0 ? "bigint" : "numeric", Arrays.copyOf(named[i], size)));
        }
        return p + named.length;
    }

    /** Bind count, sum, min and max from parameter {@code p} on; return the next parameter. */
    private int bindValues(final Connection connection, final PreparedStatement upsert, final int p) throws SQLException
    {
        upsert.setObject(p, Arrays.copyOf(counts, size));
        bindValues(connection, upsert, p + 1, sums, shape.valueScale());
        bindValues(connection, upsert, p + 2, mins, shape.valueScale());
        bindValues(connection, upsert, p + 3, maxes, shape.valueScale());
        return p + 4;
    }

    /** Bind the user aggregation's values (nullable) as parameter {@code p}: bigint at scale 0, else exact numeric. */
    private void bindAggregate(final Connection connection, final PreparedStatement upsert, final int p) throws SQLException
    {
        final int aggregateScale = shape.aggregateScale();
        if (aggregateScale == 0)
        {
            upsert.setArray(p, connection.createArrayOf("bigint", Arrays.copyOf(aggregates, size)));
            return;
        }
        final BigDecimal[] scaled = new BigDecimal[size];
        for (int i = 0; i < size; i++)
        {
            scaled[i] = aggregates[i] == null ? null : BigDecimal.valueOf(aggregates[i], aggregateScale);
        }
        upsert.setArray(p, connection.createArrayOf("numeric", scaled));
    }

    /** Unscaled longs as a bigint array at scale 0, else as a numeric array of their exact decimals. */
    private void bindValues(final Connection connection, final PreparedStatement upsert, final int parameter, final long[] unscaled, final int scale)
        throws SQLException
    {
        if (scale == 0)
        {
            upsert.setObject(parameter, Arrays.copyOf(unscaled, size));
            return;
        }
        final BigDecimal[] decimals = new BigDecimal[size];
        for (int i = 0; i < size; i++)
        {
            decimals[i] = BigDecimal.valueOf(unscaled[i], scale);
        }
        upsert.setArray(parameter, connection.createArrayOf("numeric", decimals));
    }
}
