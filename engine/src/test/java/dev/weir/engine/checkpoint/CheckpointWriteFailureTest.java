package dev.weir.engine.checkpoint;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A background checkpoint write that fails is told to the writer's failure listener at once, on the
 * writer thread, without waiting for the engine's next call (a following engine with no new events makes
 * none); the engine thread is still thrown the failure afterwards.
 */
class CheckpointWriteFailureTest
{
    @TempDir
    Path dir;

    @Test
    void aFailedBackgroundWriteIsToldToTheListenerWithoutAnotherCall() throws Exception
    {
        final Path checkpoints = dir.resolve("checkpoints");
        final CheckpointStore store = new CheckpointStore(checkpoints, 3);
        final CountDownLatch told = new CountDownLatch(1);
        final AtomicReference<Throwable> cause = new AtomicReference<>();
        final AtomicReference<String> thread = new AtomicReference<>();
        try (CheckpointWriter writer = new CheckpointWriter(store, CheckpointWriterTest.onThread("the-writer")))
        {
            writer.onFailure(ex ->
            {
                cause.set(ex);
                thread.set(Thread.currentThread().getName());
                told.countDown();
            });
            Files.delete(checkpoints);
            Files.writeString(checkpoints, "not a directory any more");
            writer.submit(new StateBuffer(64).clear().putLong(1));
            assertTrue(told.await(120, TimeUnit.SECONDS), "the listener is told while the engine makes no call");
            assertTrue(cause.get().getMessage().startsWith("writing a checkpoint failed"), cause.get().getMessage());
            assertTrue("the-writer".equals(thread.get()), "on the thread the writer was given: " + thread.get());
            final IllegalStateException thrown = assertThrows(IllegalStateException.class, writer::isIdle);
            assertSame(cause.get().getCause(), thrown.getCause(), "the engine thread is thrown the same failure");
        }
    }
}
