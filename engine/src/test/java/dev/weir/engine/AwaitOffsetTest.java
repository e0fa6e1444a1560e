package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Pipeline#awaitOffset} parks: it returns as soon as the last stage has applied the offset (woken, not
 * after its time-out), returns false on time-out, and throws a failure that happens while it waits.
 */
class AwaitOffsetTest
{
    /** The time-out of every wait: long enough for a pipeline to start and apply an event on a busy machine. */
    private static final long LONG_WAIT_S = 120;
    /** A wait woken when applied (or failed) returns well before its time-out: half of it, however busy the machine. */
    private static final long WOKEN_BOUND_MS = TimeUnit.SECONDS.toMillis(LONG_WAIT_S) / 2;

    @TempDir
    Path dir;
    /** The offset of the journal's one event; offsets are dense, so the next append is at {@code first + 1}. */
    private long first;

    @Test
    void returnsOnceTheOffsetIsAppliedNotAtItsTimeout() throws Exception
    {
        try (Pipeline pipeline = Weir.pipeline().journal(journal()).window(TumblingWindows.of(1_000)).build().start())
        {
            assertTrue(pipeline.awaitOffset(first, LONG_WAIT_S, TimeUnit.SECONDS));
            final Thread producer = appendLater(pipeline, 2, 500);
            final long start = System.nanoTime();
            assertTrue(pipeline.awaitOffset(first + 1, LONG_WAIT_S, TimeUnit.SECONDS));
            final long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            producer.join();
            assertTrue(waitedMs < WOKEN_BOUND_MS, "woken when applied, not at the time-out: " + waitedMs + " ms");
        }
    }

    @Test
    void returnsFalseOnTimeout() throws Exception
    {
        try (Pipeline pipeline = Weir.pipeline().journal(journal()).window(TumblingWindows.of(1_000)).build().start())
        {
            assertTrue(pipeline.awaitOffset(first, LONG_WAIT_S, TimeUnit.SECONDS));
            final long start = System.nanoTime();
            assertFalse(pipeline.awaitOffset(first + 1_000, 100, TimeUnit.MILLISECONDS));
            assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(100), "waited its time-out");
        }
    }

    @Test
    void throwsAFailureThatHappensWhileItWaits() throws Exception
    {
        final Pipeline pipeline = Weir.pipeline().journal(journal()).window(TumblingWindows.of(1_000))
            .onResult(r ->
            {
                throw new IllegalStateException("refused");
            })
            .build()
            .start();
        try
        {
            assertTrue(pipeline.awaitOffset(first, LONG_WAIT_S, TimeUnit.SECONDS));
            final Thread producer = appendLater(pipeline, 2, 5_000); // fires [0, 1000): the listener throws
            final long start = System.nanoTime();
            assertThrows(PipelineFailedException.class, () -> pipeline.awaitOffset(first + 1_000, LONG_WAIT_S, TimeUnit.SECONDS));
            final long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            producer.join();
            assertTrue(waitedMs < WOKEN_BOUND_MS, "woken by the failure, not at the time-out: " + waitedMs + " ms");
        }
        finally
        {
            assertThrows(PipelineFailedException.class, pipeline::close);
        }
    }

    /**
     * Append one event from another thread, once the caller has had time to start waiting.
     *
     * @return the producer thread: join it before closing the pipeline (which closes the journal it appends to).
     */
    private static Thread appendLater(final Pipeline pipeline, final long eventId, final long eventTime)
    {
        final Thread producer = new Thread(() ->
        {
            try
            {
                Thread.sleep(200); // let the caller park first
            }
            catch (final InterruptedException ex)
            {
                return;
            }
            pipeline.append(eventId, eventTime, "k", 1);
        });
        producer.start();
        return producer;
    }

    private Path journal()
    {
        final Path journal = dir.resolve("journal");
        try (EventJournal events = EventJournal.openOrCreate(journal))
        {
            first = events.append(1, 0, "k", 1);
        }
        return journal;
    }
}
