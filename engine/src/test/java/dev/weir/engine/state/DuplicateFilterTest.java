package dev.weir.engine.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Duplicates are dropped, ids are forgotten oldest first and head-of-line, the ring keeps order across
 * wrap-around and growth, and steady-state use allocates nothing.
 */
class DuplicateFilterTest
{
    private static final int WINDOW = 10_000;

    private long horizon;
    private final DuplicateFilter.EvictionRule beforeHorizon = (eventTime, keyId) -> eventTime < horizon;

    @Test
    void detectsDuplicatesAndTriplicates()
    {
        final DuplicateFilter filter = new DuplicateFilter(4);
        assertTrue(filter.firstSeen(1, 100, 0));
        assertTrue(filter.firstSeen(2, 100, 0));
        assertFalse(filter.firstSeen(1, 100, 0));
        assertFalse(filter.firstSeen(1, 999, 7), "a duplicate is a duplicate whatever its time and key");
        assertFalse(filter.firstSeen(2, 100, 0));
        assertFalse(filter.firstSeen(2, 100, 0));
        assertTrue(filter.firstSeen(Long.MIN_VALUE, 1, 0));
        assertTrue(filter.firstSeen(0, 1, 0));
        assertTrue(filter.firstSeen(-1, 1, 0));
        assertFalse(filter.firstSeen(Long.MIN_VALUE, 1, 0));
        assertFalse(filter.firstSeen(0, 1, 0));
        assertFalse(filter.firstSeen(-1, 1, 0));
        assertEquals(5, filter.size());
    }

    @Test
    void forgetsInArrivalOrderAndStopsAtTheFirstItCannotForget()
    {
        final DuplicateFilter filter = new DuplicateFilter(16);
        filter.firstSeen(10, 100, 1);
        filter.firstSeen(11, 200, 2);
        filter.firstSeen(12, 50, 3); // old, but behind a newer entry
        filter.firstSeen(13, 300, 4);
        final List<Long> asked = new ArrayList<>();
        final int forgotten = filter.forget((eventTime, keyId) ->
        {
            asked.add(eventTime);
            return eventTime < 150;
        });
        assertEquals(1, forgotten);
        assertEquals(List.of(100L, 200L), asked, "asked oldest first, stopped at the first refusal");
        assertEquals(3, filter.size());
        assertTrue(filter.firstSeen(10, 400, 1), "a forgotten id is seen as new again");
        assertFalse(filter.firstSeen(12, 50, 3), "head-of-line: the old entry behind a newer one is kept");

        assertEquals(4, filter.forget((eventTime, keyId) -> true));
        assertEquals(0, filter.size());
        assertEquals(0, filter.forget((eventTime, keyId) -> true));
        assertTrue(filter.firstSeen(11, 1, 0));
        assertTrue(filter.firstSeen(12, 1, 0));
        assertTrue(filter.firstSeen(13, 1, 0));
    }

    @Test
    void ruleSeesTheKeyId()
    {
        final DuplicateFilter filter = new DuplicateFilter(16);
        filter.firstSeen(1, 10, 5);
        filter.firstSeen(2, 10, 6);
        assertEquals(1, filter.forget((eventTime, keyId) -> keyId == 5));
        assertTrue(filter.firstSeen(1, 10, 5));
        assertFalse(filter.firstSeen(2, 10, 6));
    }

    @Test
    void keepsOrderAndMembershipAcrossWrapAroundAndGrowth()
    {
        final DuplicateFilter filter = new DuplicateFilter(16);
        final ArrayDeque<long[]> model = new ArrayDeque<>();
        long nextId = 0;
        long clock = 0;
        for (int round = 0; round < 200; round++)
        {
            // add a few more than we forget, so the head moves around the ring and the ring grows while wrapped
            final int adds = 7 + round % 5;
            for (int i = 0; i < adds; i++)
            {
                final long id = nextId * 7919 % 1_000_003 - 500_000; // distinct, not in arrival order
                nextId++;
                clock++;
                assertTrue(filter.firstSeen(id, clock, (int)(id & 0xff)));
                model.addLast(new long[] {id, clock, id & 0xff});
            }
            final int forgets = 5 + round % 3;
            final long limit = model.size() > forgets ? model.toArray(new long[0][])[forgets][1] : Long.MAX_VALUE;
            final int forgotten = filter.forget((eventTime, keyId) -> eventTime < limit);
            assertEquals(Math.min(forgets, model.size()), forgotten);
            final List<long[]> gone = new ArrayList<>();
            for (int i = 0; i < forgotten; i++)
            {
                gone.add(model.removeFirst());
            }
            assertEquals(model.size(), filter.size());
            assertSameEntries(model, filter);
            for (final long[] entry : model)
            {
                assertFalse(filter.firstSeen(entry[0], entry[1], (int)entry[2]), "still remembered");
            }
            for (final long[] entry : gone)
            {
                clock++;
                assertTrue(filter.firstSeen(entry[0], clock, (int)entry[2]), "forgotten, so new again");
                model.addLast(new long[] {entry[0], clock, entry[2]});
            }
            assertSameEntries(model, filter);
        }
        assertTrue(filter.size() > 16 * 8, "the ring grew several times: " + filter.size());
        assertTrue(filter.retainedBytes() >= (long)filter.size() * 20);
    }

    @Test
    void forEachIsOldestFirstAndClearForgetsAll()
    {
        final DuplicateFilter filter = new DuplicateFilter(16);
        for (int i = 0; i < 20; i++)
        {
            filter.firstSeen(100 + i, 1_000 + i, i);
        }
        filter.forget((eventTime, keyId) -> eventTime < 1_005);
        for (int i = 20; i < 30; i++)
        {
            filter.firstSeen(100 + i, 1_000 + i, i);
        }
        final List<Long> seen = new ArrayList<>();
        filter.forEach((eventId, eventTime, keyId) ->
        {
            assertEquals(eventId + 900, eventTime);
            assertEquals(eventId - 100, keyId);
            seen.add(eventId);
        });
        final List<Long> expected = new ArrayList<>();
        for (long id = 105; id < 130; id++)
        {
            expected.add(id);
        }
        assertEquals(expected, seen);

        final DuplicateFilter restored = new DuplicateFilter(4);
        filter.forEach(restored::firstSeen);
        assertSameEntries(filter, restored);

        filter.clear();
        assertEquals(0, filter.size());
        filter.forEach((eventId, eventTime, keyId) -> { throw new AssertionError("cleared"); });
        assertTrue(filter.firstSeen(110, 1, 0));
    }

    @Test
    void steadyStateAllocatesNothing()
    {
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final DuplicateFilter filter = new DuplicateFilter(1 << 10);
        long i = 0;
        // warm up: grow to the working size and let the JIT compile
        for (; i < 3_000_000; i++)
        {
            step(filter, i);
        }
        final long threadId = Thread.currentThread().getId();
        final long before = threads.getThreadAllocatedBytes(threadId);
        for (; i < 4_000_000; i++)
        {
            step(filter, i);
        }
        final long allocated = threads.getThreadAllocatedBytes(threadId) - before;
        assertEquals(0, allocated, "bytes allocated by 1,000,000 firstSeen+forget");
        assertEquals(WINDOW + 1, filter.size());
    }

    private void step(final DuplicateFilter filter, final long i)
    {
        final long id = i * 0x9E3779B97F4A7C15L;
        if (!filter.firstSeen(id, i, (int)(i & 1023)))
        {
            throw new AssertionError("new id reported as duplicate: " + i);
        }
        if ((i & 7) == 0 && filter.firstSeen(id, i, (int)(i & 1023)))
        {
            throw new AssertionError("duplicate not detected: " + i);
        }
        horizon = i - WINDOW;
        filter.forget(beforeHorizon);
    }

    private static void assertSameEntries(final Iterable<long[]> expected, final DuplicateFilter filter)
    {
        final List<String> want = new ArrayList<>();
        for (final long[] entry : expected)
        {
            want.add(entry[0] + "@" + entry[1] + "/" + entry[2]);
        }
        assertEquals(want, entries(filter));
    }

    private static void assertSameEntries(final DuplicateFilter expected, final DuplicateFilter actual)
    {
        assertEquals(entries(expected), entries(actual));
    }

    private static List<String> entries(final DuplicateFilter filter)
    {
        final List<String> got = new ArrayList<>();
        filter.forEach((eventId, eventTime, keyId) -> got.add(eventId + "@" + eventTime + "/" + keyId));
        return got;
    }

    @org.junit.jupiter.api.Test
    void requeuingAnEntryThatMustBeKeptLetsTheOthersBeForgotten()
    {
        final DuplicateFilter filter = new DuplicateFilter(16);
        filter.firstSeen(1, 10, 7);   // key 7 must be kept
        filter.firstSeen(2, 11, 1);
        filter.firstSeen(3, 12, 1);
        final DuplicateFilter.EvictionRule keepSeven = (time, key) -> key != 7;
        org.junit.jupiter.api.Assertions.assertEquals(0, filter.forget(keepSeven), "head-of-line without requeues");
        org.junit.jupiter.api.Assertions.assertEquals(2, filter.forget(keepSeven, 1));
        org.junit.jupiter.api.Assertions.assertEquals(1, filter.size());
        org.junit.jupiter.api.Assertions.assertFalse(filter.firstSeen(1, 10, 7), "the kept id is still remembered");
        org.junit.jupiter.api.Assertions.assertTrue(filter.firstSeen(2, 11, 1), "a forgotten id is new again");
    }
}
