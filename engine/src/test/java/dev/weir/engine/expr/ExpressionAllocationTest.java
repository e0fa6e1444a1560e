package dev.weir.engine.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.management.ManagementFactory;

import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.Test;

/**
 * A compiled three-clause filter and a computed value allocate nothing per event: 0 B over 1,000,000 of each; so do a
 * filter comparing string columns across dictionaries and a value over table columns, once every text was seen.
 */
class ExpressionAllocationTest
{
    private static final JournalSchema SCHEMA = ExpressionsParseTest.SCHEMA;

    @Test
    void evaluatingAllocatesNothing()
    {
        final TestIds ids = new TestIds();
        final TestEvent[] events = new TestEvent[64];
        final String[] channels = {"online", "pos", "atm"};
        final String[] countries = {"FR", "DE", "US", "GB"};
        for (int i = 0; i < events.length; i++)
        {
            events[i] = new TestEvent(SCHEMA.size());
            events[i].ids[0] = ids.intern(0, "c" + i % 7);
            events[i].ids[1] = ids.intern(1, channels[i % channels.length]);
            events[i].ids[2] = ids.intern(2, countries[i % countries.length]);
            events[i].longs[3] = i * 137L;
            events[i].longs[4] = i * 11L;
            events[i].longs[5] = i % 5;
        }
        final EventFilter filter = Expressions.filter(
            "channel = 'online' and country in ('FR', 'DE', 'IT') and amount * qty - fee > 10.00 or not card != 'never'", SCHEMA, ids);
        final EventValue value = Expressions.value("(amount - fee) * qty + 1.5", SCHEMA);
        assertSteadyStateAllocatesNothing(filter, value, events, ids);
    }

    @Test
    void comparingStringColumnsAcrossDictionariesAllocatesNothing()
    {
        final ExpressionColumns columns = TableColumnExpressionsTest.COLUMNS;
        final TestIds ids = new TestIds();
        final TestEvent[] events = new TestEvent[64];
        final String[] countries = {"FR", "DE", "US", "GB", "IT"};
        for (int i = 0; i < events.length; i++)
        {
            events[i] = new TestEvent(columns.size());
            events[i].ids[TableColumnExpressionsTest.COUNTRY] = ids.intern(TableColumnExpressionsTest.COUNTRY, countries[i % 5]);
            events[i].ids[TableColumnExpressionsTest.HOME] = ids.intern(TableColumnExpressionsTest.HOME, countries[(i * 7 + 3) % 4]);
            events[i].ids[TableColumnExpressionsTest.SEGMENT] = ids.intern(TableColumnExpressionsTest.SEGMENT, i % 3 == 0 ? "gold" : "std");
            events[i].longs[TableColumnExpressionsTest.AMOUNT] = i * 137L;
            events[i].longs[TableColumnExpressionsTest.LIMIT] = i * 101L;
            events[i].longs[TableColumnExpressionsTest.RATE] = 1_000000L + i;
        }
        final EventFilter filter = Expressions.filter(
            "country != cards.home and amount > cards.limit or cards.home = country and cards.segment in ('gold', 'never')", columns, ids);
        final EventValue value = Expressions.value("amount * fx.rate", columns);
        assertSteadyStateAllocatesNothing(filter, value, events, ids);
    }

    /** Warms up on the 64 events, then evaluates 1,000,000 of them: 0 B allocated, no lookup. */
    private static void assertSteadyStateAllocatesNothing(final EventFilter filter, final EventValue value, final TestEvent[] events,
        final TestIds ids)
    {
        long sink = 0;
        for (int i = 0; i < 2_000_000; i++)
        {
            sink += step(filter, value, events[i & 63]);
        }
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long threadId = Thread.currentThread().getId();
        final long lookups = ids.lookups;
        final long before = threads.getThreadAllocatedBytes(threadId);
        for (int i = 0; i < 1_000_000; i++)
        {
            sink += step(filter, value, events[i & 63]);
        }
        final long allocated = threads.getThreadAllocatedBytes(threadId) - before;
        assertEquals(0, allocated, "bytes allocated by 1,000,000 filter tests and values (sink " + sink + ")");
        assertEquals(lookups, ids.lookups, "no lookups in steady state");
    }

    private static long step(final EventFilter filter, final EventValue value, final TestEvent event)
    {
        return filter.test(event) ? value.value(event) + (value.wrapped() ? 1 : 0) : 1;
    }
}
