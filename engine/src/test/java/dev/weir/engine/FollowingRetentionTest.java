package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.weir.engine.metrics.CounterTypes;
import dev.weir.engine.metrics.MetricsFile;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.HistoryBase;
import dev.weir.journal.JournalClock;
import dev.weir.journal.JournalCycles;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRollCycle;
import dev.weir.journal.retention.HeldRemovedCycles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A following pipeline with {@link PipelineBuilder#retention}, on a minutely journal under a test clock moved a
 * minute at a time while an in-process producer appends: its retention thread removes the events and output
 * cycles that ended more than the retention ago (the pipeline's own checkpoints move the floor on), counts its
 * steps in the metrics file, keeps the run going when a step fails (and counts the failure), and ends with the
 * run. A replay cannot have one.
 */
class FollowingRetentionTest
{
    private static final long START = Instant.parse("2026-12-01T10:00:00Z").toEpochMilli();
    private static final int CYCLES = 8;
    private static final int PER_CYCLE = 500;

    @TempDir
    Path dir;

    private final AtomicLong now = new AtomicLong(START + 5_000);

    @AfterEach
    void restoreClock()
    {
        JournalClock.useForTests(null);
    }

    private Path minutelyJournal()
    {
        JournalClock.useForTests(JournalClock.of(now::get));
        final Path journal = dir.resolve("j");
        EventJournal.openOrCreate(journal, null, JournalRollCycle.MINUTELY).close();
        return journal;
    }

    private static PipelineBuilder builder(final Path journal)
    {
        return Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000)).checkpointEvery(100);
    }

    @Test
    void whileFollowingTheCyclesThatEndedMoreThanTheRetentionAgoGoAndTheStepsAreCounted() throws Exception
    {
        final Path journal = minutelyJournal();
        long firstOffset = -1;
        try (Pipeline pipeline = builder(journal).retention(Duration.ofMinutes(2), null).build().start())
        {
            assertTrue(retentionThreadAlive(), "a retention thread of the run's own");
            for (int c = 0; c < CYCLES; c++)
            {
                long offset = -1;
                for (int i = 0; i < PER_CYCLE; i++)
                {
                    offset = pipeline.append(c * PER_CYCLE + i, now.get() + i, "k" + (i % 10), i);
                    firstOffset = firstOffset < 0 ? offset : firstOffset;
                }
                assertTrue(pipeline.awaitOffset(offset, 60, TimeUnit.SECONDS));
                awaitStepAt(pipeline, now.addAndGet(60_000));
                final int eventCycles = JournalCycles.events(JournalDirectory.open(journal)).cycles().size();
                assertTrue(eventCycles <= 4, "cycle " + c + ": " + eventCycles + " events cycle files, keeping 2 minutes");
            }
            assertEquals(0, pipeline.metrics().value(CounterTypes.RETENTION_FAILURES));
            assertTrue(pipeline.metrics().value(CounterTypes.RETENTION_CYCLES_REMOVED) >= 2 * (CYCLES - 4), "events and results cycles removed");
            assertTrue(pipeline.metrics().value(CounterTypes.RETENTION_BYTES_REMOVED) > 0);
            assertTrue(pipeline.metrics().value(CounterTypes.RETENTION_BYTES_KEPT) > 0);
            assertEquals(now.get(), pipeline.metrics().value(CounterTypes.RETENTION_LAST_STEP));
            final long oldest = pipeline.metrics().value(CounterTypes.RETENTION_OLDEST_OFFSET);
            assertTrue(oldest > firstOffset, "oldest held " + oldest + " after " + firstOffset);
            assertEquals(oldest, JournalCycles.events(JournalDirectory.open(journal)).oldestOffset());
            assertTrue(pipeline.metrics().value(CounterTypes.RETENTION_EVENTS_FLOOR) >= oldest, "the floor is past what was removed");
        }
        assertFalse(retentionThreadAlive(), "the retention thread ends with the run");
        assertTrue(HistoryBase.read(JournalDirectory.open(journal)).isPresent(), "the base holds what the removed cycles defined");
        try (MetricsFile file = MetricsFile.open(JournalDirectory.open(journal).metricsFile()))
        {
            assertTrue(file.value(CounterTypes.RETENTION_STEPS) >= CYCLES, "the counters are in the file weir stat reads");
        }
    }

    /**
     * Issue 28, item 7: a follower (restarted, so its output journal verified the stored outputs first; with a text
     * filter, whose literal never occurs; with an in-process producer) keeps none of the cycle files retention
     * removed open or mapped once it has read past them: their disk space is freed while it runs. Before, the
     * producer's dictionaries kept the first events cycle mapped for the producer's whole life.
     */
    @Test
    void aFollowerLetsGoOfTheCyclesRetentionRemoved() throws Exception
    {
        final Path journal = minutelyJournal();
        final PipelineBuilder following = builder(journal).where("key != 'never'").retention(Duration.ofMinutes(1), null);
        try (Pipeline first = following.build().start())
        {
            appendCycle(first, 0);
        }
        try (Pipeline pipeline = following.build().start())
        {
            for (int c = 1; c < CYCLES; c++)
            {
                appendCycle(pipeline, c);
            }
            assertTrue(pipeline.metrics().value(CounterTypes.RETENTION_CYCLES_REMOVED) >= 2 * (CYCLES - 4), "events and results cycles removed");
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!HeldRemovedCycles.inThisProcess(journal).isEmpty() && System.nanoTime() < deadline)
            {
                Thread.sleep(20); // Chronicle lets go of a file on a background thread
            }
            assertEquals(List.of(), HeldRemovedCycles.inThisProcess(journal), "removed cycle files this process still maps or holds open");
        }
    }

    /** Append a cycle's events, wait until the pipeline read them, then move the clock on a minute and await a retention step at it. */
    private void appendCycle(final Pipeline pipeline, final int c) throws InterruptedException
    {
        long offset = -1;
        for (int i = 0; i < PER_CYCLE; i++)
        {
            offset = pipeline.append(c * PER_CYCLE + i, now.get() + i * 10L, "k" + (i % 10), i); // windows close: outputs
        }
        assertTrue(pipeline.awaitOffset(offset, 60, TimeUnit.SECONDS));
        awaitStepAt(pipeline, now.addAndGet(60_000));
    }

    @Test
    void aStepThatFailsIsCountedAndTheRunGoesOn() throws Exception
    {
        final Path journal = minutelyJournal();
        final Path notADirectory = Files.writeString(dir.resolve("archive"), "a file where the archive should be");
        try (Pipeline pipeline = builder(journal).retention(Duration.ZERO, notADirectory).build().start())
        {
            long offset = -1;
            for (int c = 0; c < 4; c++)
            {
                for (int i = 0; i < PER_CYCLE; i++)
                {
                    offset = pipeline.append(c * PER_CYCLE + i, now.get() + i, "k" + (i % 10), i);
                }
                assertTrue(pipeline.awaitOffset(offset, 60, TimeUnit.SECONDS));
                now.addAndGet(60_000);
            }
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (pipeline.metrics().value(CounterTypes.RETENTION_FAILURES) < 2 && System.nanoTime() < deadline)
            {
                now.addAndGet(60_000);
                Thread.sleep(50);
            }
            assertTrue(pipeline.metrics().value(CounterTypes.RETENTION_FAILURES) >= 2, "failed steps counted, and tried again");
            assertEquals(PipelineState.RUNNING, pipeline.state(), "a failed step does not stop the run");
            final long more = pipeline.append(99_999, now.get(), "k1", 1);
            assertTrue(pipeline.awaitOffset(more, 60, TimeUnit.SECONDS), "the run still processes events");
            assertTrue(JournalCycles.events(JournalDirectory.open(journal)).cycles().size() >= 4, "nothing was removed: the archive failed");
        }
    }

    @Test
    void aReplayHasNoRetention()
    {
        final Path journal = minutelyJournal();
        final PipelineBuilder replay = builder(journal).replayRange(-1, Long.MAX_VALUE).retention(Duration.ofHours(1), null);
        assertThrows(IllegalStateException.class, replay::conclude);
        assertThrows(IllegalArgumentException.class, () -> builder(journal).retention(Duration.ofMillis(-1), null));
    }

    @Test
    void theStepPeriodIsAQuarterOfACycleAtMostTenSeconds()
    {
        assertEquals(10_000, FollowingRetention.periodMillis(JournalRollCycle.MINUTELY.lengthMillis()));
        assertEquals(10_000, FollowingRetention.periodMillis(JournalRollCycle.DAILY.lengthMillis()));
        assertEquals(250, FollowingRetention.periodMillis(1_000));
    }

    /**
     * Wait for a step taken at the journal time {@code nowMillis}, not only for one more step: a step that read the
     * clock before it moved may still be under way and be counted after the move (a slow step on a busy machine).
     */
    private static void awaitStepAt(final Pipeline pipeline, final long nowMillis) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (pipeline.metrics().value(CounterTypes.RETENTION_LAST_STEP) < nowMillis && System.nanoTime() < deadline)
        {
            Thread.sleep(5);
        }
        assertEquals(nowMillis, pipeline.metrics().value(CounterTypes.RETENTION_LAST_STEP), "a step at the moved clock within 120 s");
    }

    private static boolean retentionThreadAlive()
    {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().matches("weir-default-\\d+-retention") && t.isAlive());
    }
}
