package dev.weir.engine.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BiFunction;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The background checkpoint writer: one checkpoint in flight, written in submission order, durable once
 * idle, and a failed write reported to the engine thread rather than lost.
 */
class CheckpointWriterTest
{
    @TempDir
    Path dir;

    @Test
    void aSubmittedCheckpointIsInTheStoreOnceTheWriterIsIdle()
    {
        final CheckpointStore store = new CheckpointStore(dir, 3);
        try (CheckpointWriter writer = new CheckpointWriter(store, onThread("writer")))
        {
            assertTrue(writer.isIdle());
            writer.submit(state(7));
            writer.awaitIdle();
            assertTrue(writer.isIdle());
            assertEquals(7, StateBuffer.reading(store.loadNewestValid().payload()).getLong());
        }
    }

    @Test
    void aSecondSubmissionWhileOneIsInFlightIsRefused()
    {
        final CheckpointStore store = new CheckpointStore(dir, 3);
        try (CheckpointWriter writer = new CheckpointWriter(store, onThread("writer")))
        {
            boolean refusedOnce = false;
            for (int i = 0; i < 200 && !refusedOnce; i++)
            {
                writer.awaitIdle();
                writer.submit(state(i));
                if (!writer.isIdle())
                {
                    assertThrows(IllegalStateException.class, () -> writer.submit(state(-1)));
                    refusedOnce = true;
                }
            }
            writer.awaitIdle();
            assertTrue(refusedOnce, "a write (with two forces and a rename) was never seen in flight");
        }
    }

    @Test
    void writeNowComesAfterTheCheckpointInFlight()
    {
        final CheckpointStore store = new CheckpointStore(dir, 3);
        try (CheckpointWriter writer = new CheckpointWriter(store, onThread("writer")))
        {
            writer.submit(state(1));
            writer.writeNow(state(2));
            final CheckpointStore.Loaded newest = store.loadNewestValid();
            assertEquals(2, newest.sequence());
            assertEquals(2, StateBuffer.reading(newest.payload()).getLong());
        }
    }

    @Test
    void aFailedBackgroundWriteIsThrownToTheEngineThread() throws IOException
    {
        final Path checkpoints = dir.resolve("checkpoints");
        final CheckpointStore store = new CheckpointStore(checkpoints, 3);
        try (CheckpointWriter writer = new CheckpointWriter(store, onThread("writer")))
        {
            Files.delete(checkpoints);
            Files.writeString(checkpoints, "not a directory any more");
            writer.submit(state(1));
            final IllegalStateException ex = assertThrows(IllegalStateException.class, writer::awaitIdle);
            assertTrue(ex.getMessage().startsWith("writing a checkpoint failed"), ex.getMessage());
            assertThrows(IllegalStateException.class, writer::isIdle);
            assertFalse(Files.isDirectory(checkpoints));
        }
    }

    @Test
    void aClosedWriterRefusesNewCheckpoints()
    {
        final CheckpointWriter writer = new CheckpointWriter(new CheckpointStore(dir, 3), onThread("writer"));
        writer.submit(state(1));
        writer.close();
        assertTrue(writer.isIdle(), "close waits for the checkpoint in flight");
        assertThrows(IllegalStateException.class, () -> writer.submit(state(2)));
    }

    /**
     * @param name the thread's name.
     * @return what starts the writer's agent on a plain thread of that name; an error its duty cycle throws is
     *         printed (the writer catches its own).
     */
    static BiFunction<Agent, IdleStrategy, AgentRunner> onThread(final String name)
    {
        return (agent, idle) ->
        {
            final AgentRunner runner = new AgentRunner(idle, Throwable::printStackTrace, null, agent);
            new Thread(runner, name).start();
            return runner;
        };
    }

    private static StateBuffer state(final long value)
    {
        return new StateBuffer(64).clear().putLong(value);
    }
}
