package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The state and failure listeners: a following pipeline whose result listener throws on a window fired by an
 * event appended after start reaches its failure listener without a call to stop (in every layout), its state is
 * {@link PipelineState#FAILED} and {@link Pipeline#stop()} throws; a normal run goes STARTING, RUNNING,
 * STOPPING, STOPPED, each told on the thread that made the change.
 */
class PipelineStateTest
{
    private static final String BOOM = "result listener refuses the window";

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(PipelineLayout.class)
    void aStageFailureReachesTheFailureListenerWithinASecond(final PipelineLayout layout) throws Exception
    {
        final CountDownLatch failed = new CountDownLatch(1);
        final AtomicReference<Throwable> told = new AtomicReference<>();
        final List<String> states = new CopyOnWriteArrayList<>();
        final Pipeline pipeline = Weir.pipeline().journal(journal()).window(TumblingWindows.of(1_000)).layout(layout)
            .onResult(r ->
            {
                throw new IllegalStateException(BOOM);
            })
            .onStateChange((state, cause) -> states.add(state + (cause == null ? "" : ":" + cause.getMessage())))
            .onFailure(cause ->
            {
                told.set(cause);
                failed.countDown();
            })
            .build()
            .start();
        try
        {
            assertTrue(pipeline.awaitOffset(0, 120, TimeUnit.SECONDS), "the first event applied");
            assertEquals(PipelineState.RUNNING, pipeline.state());
            pipeline.append(2, 5_000, "k", 1); // passes the end of [0, 1000): its result is emitted, and refused
            assertTrue(failed.await(120, TimeUnit.SECONDS), "the failure reaches the listener without a call to stop");
            assertEquals(BOOM, rootCause(told.get()).getMessage());
            assertEquals(PipelineState.FAILED, pipeline.state());
            assertEquals(List.of("STARTING", "RUNNING", "FAILED:" + told.get().getMessage()), states);
            final PipelineFailedException stopped = assertThrows(PipelineFailedException.class, pipeline::stop);
            assertSame(told.get(), stopped.getCause());
            assertEquals(PipelineState.FAILED, pipeline.state(), "final");
        }
        finally
        {
            pipeline.close();
        }
    }

    @Test
    void aNormalRunGoesThroughEveryStateOnTheThreadThatChangesIt() throws Exception
    {
        final List<String> states = new CopyOnWriteArrayList<>();
        final Thread owner = Thread.currentThread();
        final Pipeline pipeline = Weir.pipeline().journal(journal()).window(TumblingWindows.of(1_000))
            .onStateChange((state, cause) -> states.add(state + (Thread.currentThread() == owner ? "" : " elsewhere") + (cause == null ? "" : " " + cause)))
            .build();
        assertEquals(PipelineState.NEW, pipeline.state());
        pipeline.start();
        assertEquals(PipelineState.RUNNING, pipeline.state());
        assertTrue(pipeline.awaitOffset(pipeline.append(2, 5_000, "k", 1), 120, TimeUnit.SECONDS));
        pipeline.close();
        assertEquals(PipelineState.STOPPED, pipeline.state());
        assertEquals(List.of("STARTING", "RUNNING", "STOPPING", "STOPPED"), states);

        final List<PipelineState> bounded = new CopyOnWriteArrayList<>();
        final Path other = dir.resolve("other");
        try (EventJournal events = EventJournal.openOrCreate(other))
        {
            events.append(1, 0, "k", 1);
        }
        Weir.pipeline().journal(other).window(TumblingWindows.of(1_000)).onStateChange((state, cause) -> bounded.add(state)).build().runToEnd();
        assertEquals(List.of(PipelineState.STARTING, PipelineState.RUNNING, PipelineState.STOPPING, PipelineState.STOPPED), bounded);
    }

    private Path journal()
    {
        final Path journal = dir.resolve("journal");
        try (EventJournal events = EventJournal.openOrCreate(journal))
        {
            events.append(1, 0, "k", 1);
        }
        return journal;
    }

    private static Throwable rootCause(final Throwable ex)
    {
        Throwable t = ex;
        while (t.getCause() != null)
        {
            t = t.getCause();
        }
        return t;
    }
}
