package dev.weir.engine.checkpoint;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.weir.engine.Weir;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code PipelineBuilder.onCheckpoint}: the checkpoint listener is told each durable checkpoint with the store's
 * payload, and {@link CheckpointCodec#relocate} changes only the journal positions a payload covers.
 */
final class CheckpointRelocationTest
{
    @TempDir
    Path dir;

    @Test
    void theListenerGetsEachCheckpointAndARelocatedCopyDiffersOnlyInItsPositions()
    {
        try (EventJournal journal = EventJournal.openOrCreate(dir))
        {
            for (int i = 0; i < 1_000; i++)
            {
                journal.append(i, 1_000L * i, "k" + (i % 7), i);
            }
        }
        final List<byte[]> told = new ArrayList<>();
        Weir.pipeline().journal(dir).window(TumblingWindows.of(10_000)).checkpointEvery(300)
            .onResult(r -> { })
            .onCheckpoint((sequence, payload) ->
            {
                final byte[] copy = new byte[payload.remaining()];
                payload.get(copy);
                told.add(copy);
            })
            .build().runToEnd();
        assertTrue(told.size() >= 3, "a checkpoint every 300 events and one at the end: " + told.size());
        final CheckpointStore.Loaded newest = new CheckpointStore(dir.resolve("checkpoints"), 2).loadNewestValid();
        final byte[] stored = new byte[newest.payload().remaining()];
        newest.payload().duplicate().get(stored);
        assertArrayEquals(stored, told.get(told.size() - 1), "the listener's payload is the store's");

        final Checkpoint original = CheckpointCodec.describe(ByteBuffer.wrap(stored));
        final ByteBuffer moved = CheckpointCodec.relocate(ByteBuffer.wrap(stored), 41, 42);
        final Checkpoint relocated = CheckpointCodec.describe(moved);
        assertEquals(41, relocated.sourceOffset());
        assertEquals(42, relocated.outputPosition());
        assertFalse(original.sourceOffset() == 41, "the original covered another offset");
        assertEquals(original.configuration(), relocated.configuration());
        assertEquals(original.applied(), relocated.applied());
        assertEquals(original.finished(), relocated.finished());
        assertEquals(stored.length, moved.remaining(), "the same length");
        final byte[] movedBytes = new byte[moved.remaining()];
        moved.duplicate().get(movedBytes);
        int differing = 0;
        for (int i = 0; i < stored.length; i++)
        {
            differing += stored[i] != movedBytes[i] ? 1 : 0;
        }
        assertTrue(differing > 0 && differing <= 16, "only the two positions' bytes differ: " + differing);
    }
}
