package dev.weir.engine.aggregate;

/**
 * An approximate count of the distinct values: a HyperLogLog sketch of 64 one-byte registers packed in
 * 8 longs (standard error about 13%; exact-ish for small counts through linear counting). Merging two
 * sketches takes each register's maximum, so a merged session's estimate is the one its events would give
 * in one sketch. Stateless and thread-safe; allocates nothing.
 */
public final class ApproxDistinct implements Aggregation
{
    private static final int REGISTER_BITS = 6;
    private static final int REGISTERS = 1 << REGISTER_BITS;
    private static final int LONGS = REGISTERS / Long.BYTES;
    private static final double ALPHA = 0.709; // the bias correction for 64 registers

    @Override
    public String name()
    {
        return "approx-distinct(64)";
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
