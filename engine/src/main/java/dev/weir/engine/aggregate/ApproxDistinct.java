package dev.weir.engine.aggregate;

import dev.weir.journal.schema.JournalSchema;

/**
 * An approximate count of the distinct values: a HyperLogLog sketch of 64 one-byte registers packed in
 * 8 longs (standard error about 13%; exact-ish for small counts through linear counting). Merging two
 * sketches takes each register's maximum, so a merged session's estimate is the one its events would give
 * in one sketch. Stateless and thread-safe; allocates nothing.
 * <p>
 * {@code new ApproxDistinct()} counts the pipeline's values, under the name {@code approx-distinct(64)};
 * {@link #of(String)} counts the values of any named column (a string column's ids, a long column's
 * values, a decimal column's unscaled longs), under the name {@code approx-distinct(64,COLUMN)}.
 */
public final class ApproxDistinct implements Aggregation
{
    private static final int REGISTER_BITS = 6;
    private static final int REGISTERS = 1 << REGISTER_BITS;
    private static final int LONGS = REGISTERS / Long.BYTES;
    private static final double ALPHA = 0.709; // the bias correction for 64 registers

    private final String column;
    private final int columnIndex;

    /** Count the distinct values of the pipeline's value column. */
    public ApproxDistinct()
    {
        this(null, -1);
    }

    private ApproxDistinct(final String column, final int columnIndex)
    {
        this.column = column;
        this.columnIndex = columnIndex;
    }

    /**
     * @param column the name of the column whose distinct values to count: string, long or decimal.
     * @return an aggregation that reads that column; the pipeline binds it to the journal's schema.
     */
    public static ApproxDistinct of(final String column)
    {
        if (column == null || column.isEmpty())
        {
            throw new IllegalArgumentException("a column name is required");
        }
        return new ApproxDistinct(column, -1);
    }

    /** @return the column counted, or null for the pipeline's value column. */
    public String column()
    {
        return column;
    }

    @Override
    public String name()
    {
        return column == null ? "approx-distinct(64)" : "approx-distinct(64," + column + ")";
    }

    @Override
    public boolean readsColumns()
    {
        return column != null;
    }

    @Override
    public Aggregation bind(final JournalSchema schema)
    {
        if (column == null)
        {
            return this;
        }
        final int index = schema.indexOf(column);
        if (index < 0)
        {
            throw new IllegalArgumentException("no column '" + column + "' to count distinct values of: the journal's columns are " + schema);
        }
        return new ApproxDistinct(column, index);
    }

    @Override
    public int stateLongs()
    {
        return LONGS;
    }

    @Override
    public void init(final AggregationState state)
    {
        for (int i = 0; i < LONGS; i++)
        {
            state.set(i, 0);
        }
    }

    @Override
    public void add(final AggregationState state, final long value, final EventColumns event)
    {
        if (column == null)
        {
            add(state, value);
        }
        else
        {
            assert columnIndex >= 0 : "bound to the journal's schema before use";
            add(state, event.raw(columnIndex));
        }
    }

    @Override
    public void add(final AggregationState state, final long value)
    {
        final long hash = scramble(value);
        final int register = (int)(hash >>> (Long.SIZE - REGISTER_BITS));
        final int rank = Math.min(Long.numberOfLeadingZeros(hash << REGISTER_BITS) + 1, Long.SIZE - REGISTER_BITS + 1);
        final int index = register / Long.BYTES;
        final int shift = (register % Long.BYTES) * Byte.SIZE;
        final long packed = state.get(index);
        if (((packed >>> shift) & 0xFF) < rank)
        {
            state.set(index, (packed & ~(0xFFL << shift)) | ((long)rank << shift));
        }
    }

    @Override
    public void merge(final AggregationState into, final AggregationState from)
    {
        for (int i = 0; i < LONGS; i++)
        {
            final long a = into.get(i);
            final long b = from.get(i);
            long merged = 0;
            for (int shift = 0; shift < Long.SIZE; shift += Byte.SIZE)
            {
                merged |= Math.max((a >>> shift) & 0xFF, (b >>> shift) & 0xFF) << shift;
            }
            into.set(i, merged);
        }
    }

    @Override
    public long result(final AggregationState state)
    {
        double sum = 0;
        int zeros = 0;
        for (int i = 0; i < LONGS; i++)
        {
            final long packed = state.get(i);
            for (int shift = 0; shift < Long.SIZE; shift += Byte.SIZE)
            {
                final int rank = (int)((packed >>> shift) & 0xFF);
                sum += Math.scalb(1.0, -rank);
                zeros += rank == 0 ? 1 : 0;
            }
        }
        final double estimate = ALPHA * REGISTERS * REGISTERS / sum;
        if (estimate <= 2.5 * REGISTERS && zeros > 0)
        {
            return Math.round(REGISTERS * Math.log((double)REGISTERS / zeros)); // linear counting
        }
        return Math.round(estimate);
    }

    /** A 64-bit finaliser (xor-shift-multiply rounds) so that nearby values spread over the registers. */
    private static long scramble(final long value)
    {
        long z = value * 0x9E37_79B9_7F4A_7C15L;
        z = (z ^ (z >>> 32)) * 0xD6E8_FEB8_6659_FD93L;
        z = (z ^ (z >>> 32)) * 0xD6E8_FEB8_6659_FD93L;
        return z ^ (z >>> 32);
    }
}
