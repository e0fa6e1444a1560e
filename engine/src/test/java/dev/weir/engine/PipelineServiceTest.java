package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A service owns a following pipeline through one object: start, awaitTermination, close (idempotent, from any
 * thread), its state, and its failure as an exception, with no latch, hook or failure listener of its own.
 */
class PipelineServiceTest
{
    /** Generous: the machine may be loaded. */
    private static final Duration BOUND = Duration.ofMinutes(2);

    @TempDir
    Path dir;

    @Test
    void closeFromAnotherThreadEndsTheWaitAndStopsTheRun() throws Exception
    {
        final Path journal = dir.resolve("journal");
        EventJournal.openOrCreate(journal).close();
        final List<String> keys = new CopyOnWriteArrayList<>();
        final PipelineService service = Weir.pipeline().journal(journal).window(TumblingWindows.of(Duration.ofSeconds(10)))
            .onResult(r -> keys.add(r.key() + "=" + r.sumText())).buildService();
        assertEquals(PipelineState.NEW, service.state());
        assertSame(service, service.start());
        assertEquals(PipelineState.RUNNING, service.state());
        final long offset = service.pipeline().append(1, 1_000, "card-1", 5);
        assertTrue(service.pipeline().awaitOffset(offset, BOUND.toSeconds(), TimeUnit.SECONDS));
        assertFalse(service.awaitTermination(Duration.ofMillis(1)), "running: the wait times out");

        final Thread closer = new Thread(service::close, "closer"); // as a shutdown hook would
        closer.start();
        service.awaitTermination(); // no failure: returns once closed
        closer.join(BOUND.toMillis());
        assertEquals(PipelineState.STOPPED, service.state());
        assertNull(service.failure());
        assertEquals(1, service.summary().events());
        assertEquals(List.of(), keys, "a stop fires no open window");
        service.close(); // idempotent
        assertTrue(service.awaitTermination(Duration.ZERO));
        assertThrows(IllegalStateException.class, service::start);
    }

    @Test
    void aFailureOfTheRunWakesTheOwnerWhoGetsItAsAnException() throws Exception
    {
        final Path journal = dir.resolve("journal");
        EventJournal.openOrCreate(journal).close();
        final PipelineService service = Weir.pipeline().journal(journal).window(TumblingWindows.of(Duration.ofSeconds(1)))
            .onResult(r ->
            {
                throw new IllegalStateException("the alert sink refused " + r.key());
            })
            .buildService().start();
        service.pipeline().append(1, 1_000, "card-1", 5);
        service.pipeline().append(2, 5_000, "card-1", 5); // fires [1000, 2000): the listener throws

        final PipelineFailedException thrown = assertThrows(PipelineFailedException.class, service::awaitTermination);
        assertInstanceOf(IllegalStateException.class, thrown.getCause());
        assertEquals("the alert sink refused card-1", thrown.getCause().getMessage());
        assertEquals(PipelineState.FAILED, service.state());
        assertEquals(thrown.getCause(), service.failure().getCause());
        service.close(); // released already: nothing thrown
        assertThrows(PipelineFailedException.class, () -> service.awaitTermination(Duration.ZERO));
    }

    @Test
    void aServiceClosedBeforeItStartedIsStopped() throws Exception
    {
        final Path journal = dir.resolve("journal");
        EventJournal.openOrCreate(journal).close();
        final AtomicReference<PipelineState> told = new AtomicReference<>();
        final PipelineService service = Weir.pipeline().journal(journal).window(TumblingWindows.of(Duration.ofSeconds(1)))
            .onStateChange((state, cause) -> told.set(state)).buildService();
        service.close();
        assertEquals(PipelineState.STOPPED, service.state());
        assertEquals(PipelineState.STOPPED, told.get());
        assertTrue(service.awaitTermination(Duration.ZERO));
        assertThrows(IllegalStateException.class, service::start);
    }
}
