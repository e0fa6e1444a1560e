package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The journal clock: the system clock by default; the test clock of {@code weir.clock.origin} and
 * {@code weir.clock.scale} runs {@code scale} times as fast from its origin; a bad one is refused.
 */
class JournalClockTest
{
    @Test
    void withoutTheTestPropertiesItIsTheSystemClock()
    {
        assertSame(JournalClock.system(), JournalClock.fromProperties(null, null));
        assertSame(JournalClock.system(), JournalClock.fromProperties("123", " "));
        final long before = System.currentTimeMillis();
        final long now = JournalClock.system().now();
        assertTrue(now >= before && now <= System.currentTimeMillis());
    }

    @Test
    void theScaledClockRunsScaleTimesAsFastFromItsOrigin()
    {
        final long origin = System.currentTimeMillis() - 10_000;
        final JournalClock clock = JournalClock.fromProperties(Long.toString(origin), "60");
        final long before = System.currentTimeMillis();
        final long now = clock.now();
        final long after = System.currentTimeMillis();
        assertTrue(now >= origin + (before - origin) * 60 && now <= origin + (after - origin) * 60, "now " + now);
        assertTrue(now - System.currentTimeMillis() > 500_000, "ten wall seconds are ten minutes ahead");

        final JournalClock fromNow = JournalClock.fromProperties(null, "60"); // no origin: from when it is made
        assertTrue(Math.abs(fromNow.now() - System.currentTimeMillis()) < 5_000);
    }

    @Test
    void aBadTestClockIsRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> JournalClock.fromProperties("1000", "fast"));
        assertThrows(IllegalArgumentException.class, () -> JournalClock.fromProperties("1000", "0"));
        assertThrows(IllegalArgumentException.class, () -> JournalClock.fromProperties("soon", "60"));
    }
}
