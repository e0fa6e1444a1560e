package dev.weir.engine.join;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * The as-of lookup: the greatest valid-from at or before the time, the later appended of two with the same
 * valid-from, a tombstone and a dead version answer no row, a future row is not seen; dead versions are freed so
 * the state stays bounded; and a random history agrees with a brute-force reading of the rule.
 */
class TableVersionsTest
{
    private static final long NO_HORIZON = Long.MIN_VALUE;

    private final TableVersions versions = new TableVersions(2);

    private long[] row(final long a, final long b)
    {
        return new long[] {a, b};
    }

    private long joined(final int key, final long time, final long horizon)
    {
        final int slot = versions.find(key, time, horizon);
        return slot == TableVersions.NONE ? -1 : versions.column(slot, 1);
    }

    @Test
    void joinsTheGreatestValidFromAtOrBeforeTheTime()
    {
        versions.put(0, 100, false, row(0, 1), NO_HORIZON);
        versions.put(0, 300, false, row(0, 3), NO_HORIZON);
        versions.put(0, 200, false, row(0, 2), NO_HORIZON); // from the past: inserted in place
        assertEquals(-1, joined(0, 99, NO_HORIZON), "before the first row: no row");
        assertEquals(1, joined(0, 100, NO_HORIZON));
        assertEquals(1, joined(0, 199, NO_HORIZON));
        assertEquals(2, joined(0, 200, NO_HORIZON));
        assertEquals(3, joined(0, 10_000, NO_HORIZON));
        assertEquals(-1, joined(1, 10_000, NO_HORIZON), "a key without rows");
        assertEquals(-1, joined(-1, 10_000, NO_HORIZON), "a key the table never had");
    }

    @Test
    void theLaterAppendedOfTwoWithTheSameValidFromWins()
    {
        versions.put(0, 100, false, row(0, 1), NO_HORIZON);
        versions.put(0, 100, false, row(0, 2), NO_HORIZON);
        assertEquals(2, joined(0, 100, NO_HORIZON));
        assertEquals(1, versions.versions(), "replaced in place");
        versions.put(0, 100, true, null, NO_HORIZON);
        assertEquals(-1, joined(0, 100, NO_HORIZON), "a later tombstone with the same valid-from removes it");
        versions.put(0, 100, false, row(0, 4), NO_HORIZON);
        assertEquals(4, joined(0, 100, NO_HORIZON), "and a later row brings it back");
    }

    @Test
    void aTombstoneMeansNoRowFromItsValidFromOn()
    {
        versions.put(0, 100, false, row(0, 1), NO_HORIZON);
        versions.put(0, 200, true, null, NO_HORIZON);
        versions.put(0, 300, false, row(0, 3), NO_HORIZON);
        assertEquals(1, joined(0, 199, NO_HORIZON));
        assertEquals(-1, joined(0, 200, NO_HORIZON));
        assertEquals(-1, joined(0, 299, NO_HORIZON));
        assertEquals(3, joined(0, 300, NO_HORIZON));
    }

    @Test
    void aFutureRowIsNotSeenBeforeItsTime()
    {
        versions.put(0, 100, false, row(0, 1), NO_HORIZON);
        versions.put(0, 5_000, false, row(0, 2), NO_HORIZON);
        assertEquals(1, joined(0, 4_999, NO_HORIZON));
        assertEquals(2, joined(0, 5_000, NO_HORIZON));
    }

    @Test
    void aVersionWhoseSuccessorIsAtOrBeforeTheHorizonIsDead()
    {
        versions.put(0, 100, false, row(0, 1), NO_HORIZON);
        versions.put(0, 200, false, row(0, 2), NO_HORIZON);
        assertEquals(1, joined(0, 150, 199), "its successor is after the horizon: alive");
        assertEquals(-1, joined(0, 150, 200), "its successor is at the horizon: dead");
        assertEquals(2, joined(0, 250, 1_000), "the newest at or before the horizon stays alive");
        assertEquals(2, joined(0, 150_000, 1_000));
    }

    @Test
    void deadVersionsAreFreedWhenTheirKeyGetsARow()
    {
        for (int i = 0; i < 1_000; i++)
        {
            versions.put(0, i * 10L, false, row(0, i), i * 10L - 25);
        }
        assertTrue(versions.versions() <= 4, "versions held: " + versions.versions());
        assertEquals(999, joined(0, 9_990, 9_990 - 25));
        assertEquals(998, joined(0, 9_985, 9_990 - 25));
        assertEquals(-1, joined(0, 9_950, 9_990 - 25), "dead whether freed or not");
    }

    @Test
    void theSweepFreesDeadVersionsOfKeysWithoutNewRows()
    {
        final int keys = 1_000;
        for (int round = 0; round < 5; round++)
        {
            for (int key = 0; key < keys; key++)
            {
                versions.put(key, round * 100L, false, row(key, round), NO_HORIZON);
            }
        }
        assertEquals(5 * keys, versions.versions());
        final long horizon = 450;
        versions.sweep(horizon, keys / 2);
        assertEquals(5 * keys - 4 * keys / 2, versions.versions(), "half the keys swept");
        versions.sweep(horizon, keys / 2);
        assertEquals(keys, versions.versions(), "one version per key is left, the one valid at the horizon");
        for (int key = 0; key < keys; key++)
        {
            assertEquals(4, joined(key, 500, horizon));
        }
    }

    @Test
    void aTombstoneAtOrBeforeTheHorizonStaysSoARowFromBeforeItIsDead()
    {
        versions.put(0, 100, false, row(0, 1), NO_HORIZON);
        versions.put(0, 200, true, null, NO_HORIZON);
        versions.sweep(300, 1);
        assertEquals(1, versions.versions(), "the tombstone is kept, the row before it freed");
        assertEquals(-1, joined(0, 400, 300));
        versions.put(0, 150, false, row(0, 7), 300);
        assertEquals(-1, joined(0, 160, 300), "its successor, the tombstone, is at or before the horizon");
        versions.put(0, 500, false, row(0, 5), 300);
        assertEquals(5, joined(0, 500, 300));
    }

    @Test
    void aRandomHistoryAgreesWithTheRuleReadByBruteForce()
    {
        final SplittableRandom random = new SplittableRandom(32);
        for (int run = 0; run < 50; run++)
        {
            final TableVersions table = new TableVersions(1);
            final List<long[]> rows = new ArrayList<>(); // key, validFrom, tombstone, value
            final Horizon horizon = new Horizon(random.nextInt(50), random.nextInt(50), random.nextInt(100));
            long sequence = 0;
            for (int step = 0; step < 2_000; step++)
            {
                final int key = random.nextInt(8);
                final long time = step + random.nextInt(-150, 150);
                if (random.nextInt(3) == 0)
                {
                    final boolean removed = random.nextInt(6) == 0;
                    final long value = ++sequence;
                    table.put(key, time, removed, new long[] {value}, horizon.horizon());
                    rows.add(new long[] {key, time, removed ? 1 : 0, value});
                }
                else
                {
                    horizon.read(time);
                    final int slot = table.find(key, time, horizon.horizon());
                    final long actual = slot == TableVersions.NONE ? -1 : table.column(slot, 0);
                    assertEquals(bruteForce(rows, key, time, horizon.horizon()), actual, "run " + run + " step " + step);
                }
                if (random.nextInt(10) == 0)
                {
                    table.sweep(horizon.horizon(), 3);
                }
            }
        }
    }

    /** The rule, read literally over every row appended so far. */
    private static long bruteForce(final List<long[]> rows, final int key, final long time, final long horizon)
    {
        long[] chosen = null;
        for (final long[] row : rows)
        {
            if (row[0] == key && row[1] <= time && (chosen == null || row[1] >= chosen[1]))
            {
                chosen = row;
            }
        }
        if (chosen == null || chosen[2] == 1)
        {
            return -1;
        }
        for (final long[] row : rows)
        {
            if (row[0] == key && row[1] > chosen[1] && row[1] <= horizon)
            {
                return -1; // dead: its successor is at or before the horizon
            }
        }
        return chosen[3];
    }
}
