package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PipelineBuilder#checkpointEachHeartbeat(boolean)}: a following pipeline checkpoints right after applying a
 * heartbeat, the checkpoint covering the heartbeat's offset and the outputs it fired; without it, a heartbeat waits for
 * the interval or the stop like any document.
 */
class CheckpointEachHeartbeatTest
{
    @TempDir
    Path dir;

    @Test
    void aHeartbeatIsCheckpointedAtOnceWithTheOutputsItFired() throws Exception
    {
        final Covered covered = run(dir.resolve("each"), true);
        assertTrue(covered.offsets().contains(covered.heartbeat()), () -> "a checkpoint covers the heartbeat before the stop: " + covered);
        assertTrue(covered.coversOutputs(), "it covers the outputs of the windows the heartbeat fired (none was fired before it)");
    }

    @Test
    void withoutItAHeartbeatWaitsForTheIntervalOrTheStop() throws Exception
    {
        final Covered covered = run(dir.resolve("interval"), false);
        assertFalse(covered.offsets().contains(covered.heartbeat()), () -> "no checkpoint before the stop: " + covered);
            }

    /** What the checkpoints published before the stop covered. */
    private record Covered(long heartbeat, List<Long> offsets, boolean coversOutputs)
    {
    }

    private static Covered run(final Path journal, final boolean eachHeartbeat) throws Exception
    {
        final List<Long> offsets = new CopyOnWriteArrayList<>();
        final List<Long> outputPositions = new CopyOnWriteArrayList<>();
        long heartbeat;
        try (EventJournal events = EventJournal.openOrCreate(journal))
        {
            for (int i = 0; i < 100; i++)
            {
                events.append(i, 10_000 + i * 10L, "k" + (i % 3), i);
            }
            final Pipeline pipeline = Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000)).outOfOrderness(100)
                .allowedLateness(0).latePolicy(LatePolicy.DROP).checkpointEvery(1_000_000).checkpointEachHeartbeat(eachHeartbeat)
                .onCheckpoint((sequence, payload) ->
                {
                    final CheckpointPayload covered = CheckpointPayload.of(payload);
                    offsets.add(covered.sourceOffset());
                    outputPositions.add(covered.outputPosition());
                })
                .build().start();
            try
            {
                heartbeat = events.appendHeartbeat(100_000);
                assertTrue(pipeline.awaitOffset(heartbeat, 60, TimeUnit.SECONDS), "the pipeline applied the heartbeat");
                if (eachHeartbeat)
                {
                    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                    while (!offsets.contains(heartbeat) && System.nanoTime() < deadline)
                    {
                        Thread.sleep(10);
                    }
                }
            }
            finally
            {
                final int before = offsets.size();
                pipeline.stop();
                assertTrue(offsets.size() > before, "the stop checkpoints");
                offsets.subList(before, offsets.size()).clear(); // only what was published before the stop counts
            }
        }
        final int at = offsets.indexOf(heartbeat);
        return new Covered(heartbeat, List.copyOf(offsets), at >= 0 && outputPositions.get(at) >= 0);
    }
}
