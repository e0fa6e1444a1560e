package dev.weir.bench;

import java.lang.ref.Reference;

import dev.weir.engine.join.AsOfJoin;
import dev.weir.journal.schema.TableRowView;

/**
 * How much heap does a joined table hold per row? Applies {@value #ROWS} rows of the benchmarks' card table
 * ({@link Workloads#CARDS}: key {@code card}, a string; {@code limit}, a decimal; {@code home}, a string of three
 * values) to one {@link AsOfJoin}, as the pipeline's publisher does, and measures the growth of the heap's used bytes
 * after repeated {@link System#gc()} (as {@link StateSize} does): the keys, their texts and the versions. Two shapes:
 * one version of each of 1,000,000 cards, and ten versions of each of 100,000 cards (all live: the horizon never
 * passes them, so none is freed).
 * <p>
 * Run: {@code java $(cat benchmarks/target/classes/weir.jvmopts) -cp benchmarks/target/benchmarks.jar dev.weir.bench.JoinStateSize}.
 * Thread-safety: single-threaded; the heap figure is only meaningful when nothing else allocates meanwhile.
 */
public final class JoinStateSize
{
    static final int ROWS = 1_000_000;

    private JoinStateSize()
    {
    }

    /**
     * Measure both shapes and print one line each.
     *
     * @param args unused.
     */
    public static void main(final String[] args)
    {
        for (final int versions : new int[] {1, 10})
        {
            measure(versions);
        }
    }

    /**
     * @param versions the versions of each card; {@value #ROWS} / versions cards.
     * @return heap bytes per row.
     */
    static double measure(final int versions)
    {
        final int keys = ROWS / versions;
        final Row row = new Row();
        final long before = StateSize.settledHeapUsed();
        final AsOfJoin join = new AsOfJoin(0, Workloads.CARDS, new int[] {0}, null);
        final long base = 1_700_000_000_000L;
        for (int v = 0; v < versions; v++)
        {
            for (int k = 0; k < keys; k++)
            {
                row.validFrom = base + v * 1_000L;
                row.card.setLength(0);
                row.card.append('k').append(k); // a reused flyweight, as the journal reader hands texts
                row.limit = 500_00 + v;
                row.home = HOMES[(k + v) % 3];
                join.apply(row, Long.MIN_VALUE);
            }
        }
        final long after = StateSize.settledHeapUsed();
        Reference.reachabilityFence(join);
        final double perRow = (double)(after - before) / ROWS;
        System.out.printf("join state %,d rows (%,d keys x %d versions): heap %.1f B/row, %.1f MiB in all%n", ROWS, keys, versions, perRow,
            (after - before) / (1024.0 * 1024.0));
        return perRow;
    }

    private static final String[] HOMES = {"FR", "DE", "IT"};

    /** A card table row, as the journal reader hands one. */
    private static final class Row implements TableRowView
    {
        long validFrom;
        final StringBuilder card = new StringBuilder();
        long limit;
        String home;

        @Override
        public int table()
        {
            return 0;
        }

        @Override
        public long validFrom()
        {
            return validFrom;
        }

        @Override
        public boolean tombstone()
        {
            return false;
        }

        @Override
        public long longColumn(final int column)
        {
            return limit;
        }

        @Override
        public CharSequence string(final int column)
        {
            return column == 0 ? card : home;
        }
    }
}
