package dev.weir.bench;

import java.util.List;

import dev.weir.engine.aggregate.Aggregation;
import dev.weir.engine.aggregate.NamedAggregates;
import dev.weir.engine.state.WindowSlots;

/**
 * How many bytes does one window slot take with named aggregates? Builds a {@link WindowSlots} as the engine does
 * for a pipeline's aggregations (none for {@code --value}; the bound {@link NamedAggregates}' aggregations for
 * {@code --aggregates}, over the {@link Workloads#TRADES} columns) and divides its
 * {@link WindowSlots#retainedBytes()} by its capacity: the bytes of each slot, exact, with no heap measured and no
 * JMH. Twice: for windows of one length (tumbling and sliding: the end is not stored) and for sessions. The per-key
 * window index and timers, which {@link StateSize} adds, do not depend on the aggregates.
 * <p>
 * Run: {@code java $(cat benchmarks/target/classes/weir.jvmopts) -cp benchmarks/target/benchmarks.jar dev.weir.bench.SlotSize}.
 * Thread-safety: single-threaded.
 */
public final class SlotSize
{
    private static final String[][] AGGREGATES = {
        {"--value qty", null},
        {NamedAggregatesBenchmark.SUM, NamedAggregatesBenchmark.SUM},
        {"candle (7 aggregates)", NamedAggregatesBenchmark.CANDLE},
    };

    private SlotSize()
    {
    }

    /**
     * Print one line per aggregate list: its name, the bytes of a slot of tumbling or sliding windows and of a session.
     *
     * @param args unused.
     */
    public static void main(final String[] args)
    {
        for (final String[] aggregates : AGGREGATES)
        {
            final List<Aggregation> aggregations = aggregations(aggregates[1]);
            System.out.printf("slot size %-22s tumbling/sliding %4d B, session %4d B%n", aggregates[0], bytesPerSlot(10_000, aggregations),
                bytesPerSlot(0, aggregations));
        }
    }

    /**
     * @param list a list of named aggregates over {@link Workloads#TRADES}, or null for none.
     * @return the window-slot aggregations the engine keeps for it.
     */
    static List<Aggregation> aggregations(final String list)
    {
        return list == null ? List.of() : Workloads.tradeAggregates(list).newAggregations();
    }

    /**
     * @param fixedLength  the windows' length, or 0 for sessions.
     * @param aggregations the slot's aggregations.
     * @return the bytes one slot takes.
     */
    static long bytesPerSlot(final long fixedLength, final List<Aggregation> aggregations)
    {
        final WindowSlots slots = new WindowSlots(1024, fixedLength, aggregations);
        return slots.retainedBytes() / slots.capacity();
    }
}
