package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.SplittableRandom;

import dev.weir.engine.window.SlidingWindows;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.engine.window.WindowSpec;
import dev.weir.journal.EventJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The figures a run's summary gives beside its counts: the events that fell in no window (sliding windows whose
 * slide exceeds their size), this run's late events and the out-of-orderness that would have kept 99% of its
 * events on time, and its busy time; on hand-worked streams, and on seeded streams re-run with the
 * out-of-orderness suggested.
 */
class RunFiguresTest
{
    @TempDir
    Path dir;

    @Test
    void countsTheEventsThatFallInTheGapsOfSlidingWindows()
    {
        // one event a second for two minutes; sliding:10s/60s covers [0s, 10s) and [60s, 70s) of them
        final long[] times = new long[120];
        for (int i = 0; i < times.length; i++)
        {
            times[i] = i * 1_000L;
        }
        final RunSummary summary = run(dir.resolve("gaps"), times, SlidingWindows.of(10_000, 60_000), 0);
        assertEquals(120, summary.eventsThisRun());
        assertEquals(100, summary.ignored(), "50 s of every 60 s is in no window");
        assertEquals(0, summary.lateThisRun());
        assertEquals(6, summary.windowsFired(), "two windows of each of the three keys");
    }

    @Test
    void saysHowManyEventsWereLateAndTheOutOfOrdernessThatKeeps99PercentOnTime()
    {
        // 100 events 100 ms apart; the 50th comes 1.5 s behind the newest, the 80th 4 s behind: both late in 1 s windows
        final long[] times = stream();
        final RunSummary summary = run(dir.resolve("late"), times, TumblingWindows.of(1_000), 0);
        assertEquals(100, summary.eventsThisRun());
        assertEquals(2, summary.lateThisRun());
        assertTrue(summary.manyLate(), "2% is more than 1%");
        assertEquals(2_000, summary.onTimeOutOfOrderness(), "the 99th smallest delay is 1.5 s: 2s keeps it");
        assertTrue(summary.busyNanos() > 0 && summary.busyNanos() <= summary.elapsedNanos(),
            "busy " + summary.busyNanos() + " ns of " + summary.elapsedNanos());

        final RunSummary again = run(dir.resolve("again"), times, TumblingWindows.of(1_000), 2_000);
        assertEquals(1, again.lateThisRun(), "with 2s only the event 4 s behind is late");
        assertFalse(again.manyLate(), "1% is not more than 1%");
    }

    @Test
    void theSuggestedOutOfOrdernessKeeps99PercentOnTimeOnSeededStreams()
    {
        for (int seed = 1; seed <= 3; seed++)
        {
            final SplittableRandom random = new SplittableRandom(seed);
            final long[] times = new long[3_000];
            for (int i = 0; i < times.length; i++)
            {
                times[i] = 1_000_000L + i * 50L - (random.nextInt(20) == 0 ? random.nextLong(30_000) : 0);
            }
            final WindowSpec window = TumblingWindows.of(5_000);
            final RunSummary first = run(dir.resolve("seed" + seed), times, window, 0);
            assertTrue(first.manyLate(), "seed " + seed + ": " + first.lateThisRun() + " late");
            final RunSummary kept = run(dir.resolve("kept" + seed), times, window, first.onTimeOutOfOrderness());
            assertTrue(kept.lateThisRun() * 100 <= kept.eventsThisRun(),
                "seed " + seed + ": " + kept.lateThisRun() + " late with " + first.onTimeOutOfOrderness() + " ms");
        }
    }

    private static long[] stream()
    {
        final long[] times = new long[100];
        for (int i = 0; i < times.length; i++)
        {
            times[i] = 100_000L + i * 100L;
        }
        times[50] = times[49] - 1_500;
        times[80] = times[79] - 4_000;
        return times;
    }

    private static RunSummary run(final Path journal, final long[] times, final WindowSpec window, final long outOfOrderness)
    {
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            for (int i = 0; i < times.length; i++)
            {
                writer.append(i, times[i], "k" + (i % 3), 1);
            }
        }
        return Weir.pipeline().journal(journal).window(window).outOfOrderness(outOfOrderness).build().runToEnd();
    }
}
