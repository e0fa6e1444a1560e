package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.IngestLog;
import dev.weir.journal.JournalDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PipelineBuilder#idleTimeout(Duration)}: a following pipeline over a journal that went quiet appends a
 * heartbeat, which closes the last window no event would have closed; a stop ends the heartbeats, and a
 * heartbeat is journal content (counted as one, not as an event).
 */
class IdleTimeoutTest
{
    private static final long WINDOW_MS = 1_000;

    @TempDir
    Path dir;

    @Test
    void aQuietJournalsLastWindowFiresThroughAHeartbeat() throws Exception
    {
        final Path journal = dir.resolve("journal");
        try (EventJournal events = EventJournal.openOrCreate(journal))
        {
            for (int i = 0; i < 100; i++)
            {
                events.append(i, 10 * i, "k" + i % 3, i); // event times 0 to 990: all in the window [0, 1000)
            }
        } // closed: its appender lock is free for the heartbeats
        final CountDownLatch fired = new CountDownLatch(1);
        final AtomicLong firedEnd = new AtomicLong(-1);
        final AtomicReference<RuntimeException> stopped = new AtomicReference<>();
        try (Pipeline pipeline = Weir.pipeline().journal(journal).window(TumblingWindows.of(WINDOW_MS))
            .idleTimeout(Duration.ofMillis(200))
            .onHeartbeatsStopped(stopped::set)
            .onResult(r ->
            {
                firedEnd.compareAndSet(-1, r.windowEnd());
                fired.countDown();
            })
            .build()
            .start())
        {
            assertTrue(fired.await(60, TimeUnit.SECONDS), "the last window fired with no event after it");
            assertEquals(WINDOW_MS, firedEnd.get());
            final IngestLog.Counts counts = IngestLog.counts(JournalDirectory.open(journal));
            assertTrue(counts.heartbeats() >= 1, "a heartbeat was appended: " + counts.heartbeats());
            assertEquals(100, counts.events(), "heartbeats are no events");
            pipeline.stop();
        }
        assertNull(stopped.get(), "the heartbeats did not stop on a failure");
    }

    @Test
    void anIdleTimeoutIsAtLeastAMillisecond()
    {
        assertThrows(IllegalArgumentException.class, () -> Weir.pipeline().idleTimeout(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> Weir.pipeline().idleTimeout(Duration.ofNanos(999_999)));
    }
}
