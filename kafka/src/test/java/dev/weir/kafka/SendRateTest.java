package dev.weir.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link SendRate} on a clock of its own: the n-th send goes no sooner than n / rate after the first, and a sender
 * that fell behind catches up without waiting; a text that is not a positive rate is refused, named first.
 */
class SendRateTest
{
    /** A clock that moves only when the pacer parks, or when the test says time passed elsewhere. */
    private static final class ManualClock
    {
        long now = 1_000_000_000L;

        void park(final long nanos)
        {
            now += nanos;
        }
    }

    @Test
    void theNthSendWaitsUntilNOverTheRateAfterTheFirst()
    {
        final ManualClock clock = new ManualClock();
        final SendRate rate = new SendRate(200, () -> clock.now, clock::park);
        final long start = clock.now;
        for (int n = 0; n < 100; n++)
        {
            rate.awaitNext();
            assertTrue(clock.now - start >= n * 5_000_000L, "send " + n + " went at " + (clock.now - start) + " ns");
            assertTrue(clock.now - start < n * 5_000_000L + 1_000_000L, "send " + n + " waited too long: " + (clock.now - start) + " ns");
        }
    }

    @Test
    void aSenderThatFellBehindCatchesUpWithoutWaiting()
    {
        final ManualClock clock = new ManualClock();
        final SendRate rate = new SendRate(1_000, () -> clock.now, clock::park);
        rate.awaitNext();
        clock.now += 50_000_000L; // the sender stalled for 50 sends' worth of time
        final long stalledAt = clock.now;
        for (int n = 1; n <= 50; n++)
        {
            rate.awaitNext();
        }
        assertEquals(stalledAt, clock.now, "the sends due during the stall went at once");
        rate.awaitNext();
        assertTrue(clock.now > stalledAt, "the send after them waited for its time");
    }

    @Test
    void aTextThatIsNotAPositiveRateIsRefusedNamedFirst()
    {
        assertEquals("fast: not a rate (give records per second, e.g. 5000/s)",
            assertThrows(IllegalArgumentException.class, () -> SendRate.parse("fast")).getMessage());
        assertEquals("0/s: the rate must be positive (records per second, e.g. 5000/s)",
            assertThrows(IllegalArgumentException.class, () -> SendRate.parse("0/s")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new SendRate(Double.POSITIVE_INFINITY));
        SendRate.parse("5_000/s").awaitNext(); // the first send never waits
    }
}
