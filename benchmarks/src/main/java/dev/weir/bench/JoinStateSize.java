package dev.weir.bench;

import java.lang.ref.Reference;

import dev.weir.engine.join.AsOfJoin;

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
    private static final String[] HOMES = {"FR", "DE", "IT"};

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
        final SyntheticTableRow row = new SyntheticTableRow();
        final StringBuilder card = new StringBuilder(); // a reused flyweight, as the journal reader hands texts
        row.key = card;
        final long before = StateSize.settledHeapUsed();
        final AsOfJoin join = new AsOfJoin(0, Workloads.CARDS, new int[] {0}, null);
        final long base = 1_700_000_000_000L;
        for (int v = 0; v < versions; v++)
        {
            for (int k = 0; k < keys; k++)
            {
                row.validFrom = base + v * 1_000L;
                card.setLength(0);
                card.append('k').append(k);
                row.value = 500_00 + v;
                row.text = HOMES[(k + v) % 3];
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
}
