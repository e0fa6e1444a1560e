package dev.weir.engine.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The firing schedule against a {@link PriorityQueue} oracle ordered by the schedule's documented
 * contract, (time, kind, window start, key id): seeded random schedules, cancellations (an owner's window
 * going away, leaving a stale entry that the owner skips when it polls it), watermark advances that fire
 * every due timer, and clears. Both must hand out the same timers in the same order, and agree on what
 * is due and on the pending count (stale entries included).
 */
class FiringScheduleTest
{
    /** One timer, as the oracle holds it. */
    private record Timer(long time, int kind, long start, int key, int slot)
    {
    }

    private static final Comparator<Timer> CONTRACT = Comparator.comparingLong(Timer::time)
        .thenComparingInt(Timer::kind)
        .thenComparingLong(Timer::start)
        .thenComparingInt(Timer::key);

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 42, 1013, 65_537})
    void firesTimersInTheOracleOrder(final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final FiringSchedule schedule = new FiringSchedule(random.nextInt(1, 40));
        final PriorityQueue<Timer> oracle = new PriorityQueue<>(CONTRACT);
        final int slots = 64;
        final long[] slotStart = new long[slots];
        final int[] slotKey = new int[slots];
        final boolean[] slotLive = new boolean[slots];
        final Set<List<Long>> scheduledIdentities = new HashSet<>();
        final List<Timer> fired = new ArrayList<>();
        final List<Timer> expectedFired = new ArrayList<>();
        long watermark = 0;
        int grownPast = 0;

        for (int step = 0; step < 50_000; step++)
        {
            final int action = random.nextInt(100);
            if (action < 60)
            {
                final int slot = random.nextInt(slots);
                final long start = watermark + random.nextLong(-50, 200);
                final int key = random.nextInt(8);
                final long at = start + random.nextLong(0, 100);
                final int kind = random.nextInt(4) == 0 ? FiringSchedule.CLEANUP : FiringSchedule.FIRE;
                // timers equal in (time, kind, start, key) have no defined relative order: keep them distinct
                if (!scheduledIdentities.add(List.of(at, (long)kind, start, (long)key)))
                {
                    continue;
                }
                slotStart[slot] = start;
                slotKey[slot] = key;
                slotLive[slot] = true;
                schedule.schedule(at, kind, start, key, slot);
                oracle.add(new Timer(at, kind, start, key, slot));
                grownPast = Math.max(grownPast, schedule.size());
            }
            else if (action < 75)
            {
                slotLive[random.nextInt(slots)] = false; // the window went away: its timers go stale
            }
            else if (action < 99)
            {
                watermark += random.nextLong(0, 60);
                while (schedule.hasDue(watermark))
                {
                    assertTrue(!oracle.isEmpty() && oracle.peek().time() <= watermark, "the oracle has a due timer too");
                    final int slot = schedule.pollSlot();
                    final Timer got = new Timer(schedule.polledTime(), schedule.polledKind(), schedule.polledStart(), schedule.polledKey(), slot);
                    final Timer want = oracle.poll();
                    assertEquals(want, got, "timer " + fired.size() + " with seed " + seed);
                    if (slotLive[slot] && slotStart[slot] == got.start() && slotKey[slot] == got.key())
                    {
                        fired.add(got);
                        expectedFired.add(want);
                    }
                }
                assertFalse(!oracle.isEmpty() && oracle.peek().time() <= watermark, "the schedule left a due timer");
                assertEquals(oracle.size(), schedule.size(), "pending timers");
            }
            else
            {
                schedule.clear();
                oracle.clear();
                assertEquals(0, schedule.size());
                assertFalse(schedule.hasDue(Long.MAX_VALUE));
            }
        }
        assertEquals(expectedFired, fired);
        assertTrue(fired.size() > 10_000, "the run fired many live timers: " + fired.size());
        assertTrue(grownPast > 16, "the heap grew past its initial capacity: " + grownPast);
    }

    @ParameterizedTest
    @ValueSource(longs = {5, 6, 7})
    void timersDueTogetherFireBeforeCleanupThenByStartThenByKey(final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final FiringSchedule schedule = new FiringSchedule(16);
        final PriorityQueue<Timer> oracle = new PriorityQueue<>(CONTRACT);
        final Set<List<Long>> seen = new HashSet<>();
        while (oracle.size() < 500)
        {
            final long at = 1_000 + random.nextInt(3);
            final int kind = random.nextInt(2);
            final long start = random.nextInt(5) * 10L;
            final int key = random.nextInt(30);
            if (seen.add(List.of(at, (long)kind, start, (long)key)))
            {
                schedule.schedule(at, kind, start, key, oracle.size());
                oracle.add(new Timer(at, kind, start, key, oracle.size()));
            }
        }
        assertFalse(schedule.hasDue(999));
        int polled = 0;
        while (schedule.hasDue(1_002))
        {
            final int slot = schedule.pollSlot();
            assertEquals(oracle.poll(), new Timer(schedule.polledTime(), schedule.polledKind(), schedule.polledStart(), schedule.polledKey(), slot));
            polled++;
        }
        assertEquals(500, polled);
        assertEquals(0, schedule.size());
    }
}
