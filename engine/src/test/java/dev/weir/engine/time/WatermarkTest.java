package dev.weir.engine.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * The watermark's contract: it starts at minus infinity, follows {@code max(wm, eventTime -
 * outOfOrderness)} and never goes backwards, jumps to plus infinity at the end of input, and restores
 * exactly.
 */
class WatermarkTest
{
    @Test
    void startsAtMinusInfinity()
    {
        assertEquals(Watermark.MIN, new Watermark(0).current());
        assertEquals(Long.MIN_VALUE, Watermark.MIN);
    }

    @Test
    void followsTheNewestEventTimeLessTheOutOfOrdernessAndNeverGoesBack()
    {
        final Watermark watermark = new Watermark(300);
        assertEquals(700, watermark.observe(1_000));
        assertEquals(700, watermark.observe(900), "an older event does not move it back");
        assertEquals(700, watermark.observe(1_000), "an equal event does not move it");
        assertEquals(701, watermark.observe(1_001));
        assertEquals(701, watermark.current());
        assertEquals(300, watermark.outOfOrderness());
    }

    @Test
    void isTheRunningMaximumOfEveryEventLessTheOutOfOrderness()
    {
        final SplittableRandom random = new SplittableRandom(11);
        final long outOfOrderness = 250;
        final Watermark watermark = new Watermark(outOfOrderness);
        long newest = Long.MIN_VALUE;
        for (int i = 0; i < 100_000; i++)
        {
            final long eventTime = random.nextLong(0, 1_000_000);
            newest = Math.max(newest, eventTime);
            assertEquals(newest - outOfOrderness, watermark.observe(eventTime));
        }
    }

    @Test
    void endOfInputIsPlusInfinityAndStays()
    {
        final Watermark watermark = new Watermark(10);
        watermark.observe(50);
        assertEquals(Watermark.MAX, watermark.endOfInput());
        assertEquals(Long.MAX_VALUE, watermark.current());
        assertEquals(Watermark.MAX, watermark.observe(Long.MAX_VALUE / 2), "nothing moves it back after the end");
    }

    @Test
    void resetRestoresAnyValueAndObservationContinuesFromIt()
    {
        final Watermark watermark = new Watermark(100);
        watermark.observe(10_000);
        watermark.reset(500);
        assertEquals(500, watermark.current());
        assertEquals(500, watermark.observe(550), "550 - 100 is behind the restored 500");
        assertEquals(600, watermark.observe(700));
        watermark.reset(Watermark.MIN);
        assertEquals(-100, watermark.observe(0));
    }

    @Test
    void refusesANegativeOutOfOrderness()
    {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> new Watermark(-1));
        assertEquals("out-of-orderness must be >= 0 ms: -1", refused.getMessage());
    }
}
