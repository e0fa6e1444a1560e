package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.SplittableRandom;

import dev.weir.engine.aggregate.ApproxDistinct;
import dev.weir.engine.aggregate.Average;
import dev.weir.engine.expr.ExpressionColumns;
import dev.weir.engine.operator.OperatorConfiguration;
import dev.weir.engine.operator.WindowAggregator;
import dev.weir.engine.operator.WindowAssigner;
import dev.weir.engine.operator.WindowConditions;
import dev.weir.engine.source.EventSlot;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.engine.window.WindowSpec;
import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The window stages allocate nothing per event in steady state: assignment, aggregation, firing and
 * discarding over a million events, measured with the thread's allocated-bytes counter.
 */
@Tag("slow")
class HotPathAllocationTest
{
    @Test
    void tumblingAllocatesNothingPerEvent()
    {
        final TumblingWindows windows = TumblingWindows.of(1_000);
        assertZeroAllocation(steady(windows).build());
    }

    @Test
    void slidingWithDedupeAndSideOutputAllocatesNothingPerEvent()
    {
        final SlidingWindows windows = SlidingWindows.of(1_000, 200);
        assertZeroAllocation(steady(windows).latePolicy(LatePolicy.SIDE).dedupe(true).build());
    }

    @Test
    void slidingInPanesAllocatesNothingPerEvent()
    {
        final OperatorConfiguration configuration = steady(SlidingWindows.of(1_000, 200)).build();
        assertTrue(configuration.panes(), "sliding windows of five slides keep panes");
        assertZeroAllocation(configuration);
    }

    @Test
    void slidingWithOneAggregatePerWindowAllocatesNothingPerEvent()
    {
        final OperatorConfiguration configuration = steady(SlidingWindows.of(1_000, 200)).latePolicy(LatePolicy.SIDE).dedupe(true)
            .panes(false).build();
        assertFalse(configuration.panes());
        assertZeroAllocation(configuration);
    }

    @Test
    void sessionsAllocateNothingPerEvent()
    {
        final SessionWindows windows = SessionWindows.withGap(100);
        assertZeroAllocation(steady(windows).build());
    }

    @Test
    void sessionsWithAUserAggregationAllocateNothingPerEvent()
    {
        final SessionWindows windows = SessionWindows.withGap(100);
        assertZeroAllocation(steady(windows).aggregation(new ApproxDistinct()).build());
    }

    @Test
    void slidingWithAUserAggregationAllocatesNothingPerEvent()
    {
        final SlidingWindows windows = SlidingWindows.of(1_000, 200);
        assertZeroAllocation(steady(windows).aggregation(new Average()).build());
    }

    @Test
    void sessionsWithTwoAggregationsOneReadingTheColumnsOfASixColumnEventAllocateNothingPerEvent()
    {
        final JournalSchema payments = JournalSchema.parse("card:string,merchant:string,country:string,amount:decimal(2),fee:long,channel:string");
        final SessionWindows windows = SessionWindows.withGap(100);
        final OperatorConfiguration configuration = steady(windows).schema(payments)
            .aggregations(List.of(new Average(), ApproxDistinct.of("merchant").bind(payments))).build();
        assertZeroAllocation(configuration, payments.size());
    }

    @Test
    void slidingWithTwoAggregationsOneReadingTheColumnsOfASixColumnEventAllocatesNothingPerEvent()
    {
        final JournalSchema payments = JournalSchema.parse("card:string,merchant:string,country:string,amount:decimal(2),fee:long,channel:string");
        final SlidingWindows windows = SlidingWindows.of(1_000, 200);
        final OperatorConfiguration configuration = steady(windows).schema(payments)
            .aggregations(List.of(ApproxDistinct.of("fee").bind(payments), new Average())).build();
        assertZeroAllocation(configuration, payments.size());
    }

    @Test
    void slidingWithUpdatesAndAnEarlyConditionAllocatesNothingPerEvent()
    {
        final SlidingWindows windows = SlidingWindows.of(1_000, 200);
        assertZeroAllocation(steady(windows).latePolicy(LatePolicy.SIDE).emitUpdates(true)
            .earlyWhen(WindowConditions.parse("(sum>=2000 and count>3) or max=499", 0, 0)).build());
    }

    @Test
    void slidingWithAnEarlyConditionOnAColumnOfTheEventAllocatesNothingPerEvent()
    {
        final JournalSchema payments = JournalSchema.parse("card:string,amount:decimal(2),limit:decimal(2)");
        final SlidingWindows windows = SlidingWindows.of(1_000, 200);
        assertZeroAllocation(steady(windows).schema(payments).emitUpdates(true)
            .earlyWhen(WindowConditions.parse("sum>limit or count>=limit", 0, 0, ExpressionColumns.of(payments))).build(), payments.size());
    }

    @Test
    void slidingWithEarlyRowsOncePerKeyAllocatesNothingPerEvent()
    {
        // every window crosses count>=3: each crossing looks up the windows of its key it overlaps, in the
        // index's ring and, with a ring of one slide, in its overflow map
        final SlidingWindows windows = SlidingWindows.of(1_000, 200);
        assertZeroAllocation(steady(windows).earlyWhen(WindowConditions.parse("count>=3", 0, 0)).earlyOncePerKey(true).build());
        assertZeroAllocation(steady(windows).earlyWhen(WindowConditions.parse("count>=3", 0, 0)).earlyOncePerKey(true)
            .indexRingSlides(1).build());
    }

    @Test
    void sessionsWithUpdatesAndAnEarlyConditionOnAnAggregateAllocateNothingPerEvent()
    {
        final SessionWindows windows = SessionWindows.withGap(100);
        assertZeroAllocation(steady(windows).aggregation(new Average()).emitUpdates(true)
            .earlyWhen(WindowConditions.parse("aggregate>100 or min<-490", 0, 1)).build());
    }

    @Test
    void slidingWithFilteredEventsAllocatesNothingPerEvent()
    {
        // every third slot is an event the pipeline's filter rejected: it moves the watermark, nothing else
        filterEvery = 3;
        try
        {
            assertZeroAllocation(steady(SlidingWindows.of(1_000, 250)).dedupe(true).latePolicy(LatePolicy.SIDE).build());
            assertZeroAllocation(steady(SessionWindows.withGap(300)).build());
        }
        finally
        {
            filterEvery = 0;
        }
    }

    /** Every how many slots {@link #feed} makes a filtered one, or 0 for none. */
    private static int filterEvery;

    /** D = 100 ms, A = 200 ms, pre-sized for 2^16 windows. */
    private static OperatorConfiguration.Builder steady(final WindowSpec windows)
    {
        return OperatorConfiguration.builder(windows).outOfOrderness(100).allowedLateness(200).initialWindows(1 << 16);
    }

    private static void assertZeroAllocation(final OperatorConfiguration configuration)
    {
        assertZeroAllocation(configuration, 0);
    }

    /** Feed a slot carrying {@code columns} columns of each event (filled at random), as with an aggregation that reads them. */
    private static void assertZeroAllocation(final OperatorConfiguration configuration, final int columns)
    {
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final WindowAggregator aggregator = configuration.newAggregator(r -> { }, e -> { });
        final WindowAssigner assigner = configuration.newAssigner();
        final EventSlot slot = new EventSlot(columns);
        final SplittableRandom random = new SplittableRandom(11);
        long i = 0;
        // warm up: reach steady state (every structure at its working size) and let the JIT compile
        for (; i < 3_000_000; i++)
        {
            feed(assigner, aggregator, slot, random, i);
        }
        final long threadId = Thread.currentThread().getId();
        final long before = threads.getThreadAllocatedBytes(threadId);
        for (; i < 4_000_000; i++)
        {
            feed(assigner, aggregator, slot, random, i);
        }
        final long allocated = threads.getThreadAllocatedBytes(threadId) - before;
        assertEquals(0, allocated, "bytes allocated by the window stages over 1,000,000 events");
    }

    private static void feed(
        final WindowAssigner assigner, final WindowAggregator aggregator, final EventSlot slot, final SplittableRandom random, final long i)
    {
        final long time = 1_000_000 + i / 20 - random.nextInt(120) - (random.nextInt(5_000) == 0 ? 1_000 : 0);
        slot.event(i, i, time, random.nextInt(2_000), random.nextInt(1_000) - 500);
        if (filterEvery > 0 && i % filterEvery == 0)
        {
            slot.filtered(i, time);
        }
        for (int c = 0; c < slot.columns.length; c++)
        {
            slot.columns[c] = random.nextInt(50);
        }
        assigner.assign(slot);
        aggregator.apply(slot);
    }
}
