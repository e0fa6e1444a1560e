package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A following pipeline whose stage fails (a real fault: its checkpoints directory replaced by a plain file,
 * so a due checkpoint cannot be written) tells the application at once, through its failure listener,
 * once, off the application's thread; {@link Pipeline#stop()} then throws the same failure. In every layout.
 */
class PipelineFailureTest
{
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(PipelineLayout.class)
    void aFollowingPipelineThatFailsTellsItsFailureListenerAtOnce(final PipelineLayout layout) throws Exception
    {
        final Path journal = dir.resolve("journal");
        try (EventJournal events = EventJournal.openOrCreate(journal))
        {
            events.append(0, 0, "k", 0);
        }
        final CountDownLatch failed = new CountDownLatch(1);
        final AtomicReference<Throwable> told = new AtomicReference<>();
        final AtomicReference<Thread> toldOn = new AtomicReference<>();
        final AtomicInteger calls = new AtomicInteger();
        final Pipeline pipeline = Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000)).layout(layout).checkpointEvery(10)
            .onFailure(cause ->
            {
                calls.incrementAndGet();
                told.set(cause);
                toldOn.set(Thread.currentThread());
                failed.countDown();
            })
            .build()
            .start();
        try
        {
            long last = 0;
            for (int i = 1; i < 100; i++)
            {
                last = pipeline.append(i, i, "k" + i % 5, i);
            }
            assertTrue(pipeline.awaitOffset(last, 120, TimeUnit.SECONDS), "applied before the fault");
            assertFalse(failed.await(0, TimeUnit.SECONDS), "no failure yet");

            breakCheckpoints(journal);
            for (int i = 100; i < 300; i++)
            {
                pipeline.append(i, i, "k" + i % 5, i); // due checkpoints now fail
            }
            assertTrue(failed.await(120, TimeUnit.SECONDS), "the failure reaches the application without a call to stop or awaitOffset");
            assertTrue(String.valueOf(told.get()).contains("checkpoint"), String.valueOf(told.get()));
            assertTrue(toldOn.get() != Thread.currentThread(), "told on the thread that saw it");
            final PipelineFailedException stopped = assertThrows(PipelineFailedException.class, pipeline::stop);
            assertSame(told.get(), stopped.getCause(), "stop throws the failure the listener was told of");
            assertTrue(calls.get() == 1, "told once: " + calls.get());
        }
        finally
        {
            try
            {
                pipeline.close();
            }
            catch (final PipelineFailedException alreadyReported)
            {
                // an assertion above failed first: keep its message
            }
        }
    }

    /** The fault: the checkpoints directory moved away and a plain file in its place (root ignores permissions). */
    private static void breakCheckpoints(final Path journal) throws IOException
    {
        final Path checkpoints = JournalDirectory.open(journal).checkpoints();
        Files.move(checkpoints, journal.resolve("checkpoints.moved"), StandardCopyOption.ATOMIC_MOVE);
        Files.writeString(checkpoints, "not a directory\n");
    }
}
