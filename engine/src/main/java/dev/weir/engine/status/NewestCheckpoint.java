package dev.weir.engine.status;

import java.nio.file.Files;
import java.util.Optional;

import dev.weir.engine.Recovery;
import dev.weir.engine.checkpoint.CheckpointCodec;
import dev.weir.engine.checkpoint.CheckpointStore;
import dev.weir.engine.checkpoint.StateSummary;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.schema.NewerFormatException;

/**
 * What a pipeline's checkpoint directory holds: its newest valid checkpoint, if any, and how many newer files were
 * torn or corrupt and skipped. Read without changing anything (a pipeline that never ran keeps no directory, and
 * none is made). Immutable; {@link #read} may run on any thread, while the pipeline runs or after.
 *
 * @param newest         the newest valid checkpoint, or empty.
 * @param skippedInvalid checkpoint files newer than it (or, without one, any) that were torn or corrupt.
 */
public record NewestCheckpoint(Optional<CheckpointSummary> newest, int skippedInvalid)
{
    /** How many checkpoints a store keeps; a reader never prunes, so only the minimum the store accepts. */
    private static final int KEEP = 2;

    /**
     * @param pipeline the journal as the pipeline sees it ({@link JournalDirectory#pipeline(String)}).
     * @return its newest valid checkpoint, described.
     * @throws NewerFormatException if that checkpoint was written by a newer Weir.
     */
    public static NewestCheckpoint read(final JournalDirectory pipeline)
    {
        if (!Files.isDirectory(pipeline.checkpoints()))
        {
            return new NewestCheckpoint(Optional.empty(), 0);
        }
        final CheckpointStore store = new CheckpointStore(pipeline.checkpoints(), KEEP);
        final CheckpointStore.Loaded loaded = store.loadNewestValid();
        if (loaded == null)
        {
            return new NewestCheckpoint(Optional.empty(), store.skippedInvalid());
        }
        final StateSummary state = CheckpointCodec.describeState(loaded);
        return new NewestCheckpoint(Optional.of(new CheckpointSummary(CheckpointCoverage.of(CheckpointCodec.describe(loaded)),
            CheckpointCodec.stateFormat(loaded), Recovery.nextRun(loaded, pipeline), state.watermark(), state.openWindows(), state.rememberedIds(),
            CheckpointCounts.of(state.counters()))), store.skippedInvalid());
    }

    /**
     * What the newest valid checkpoint covers, without reading its state: cheaper than {@link #read}, and it reads a
     * checkpoint whose state a newer Weir wrote.
     *
     * @param pipeline the journal as the pipeline sees it.
     * @return what its newest valid checkpoint covers, or empty without one.
     * @throws NewerFormatException if that checkpoint's envelope was written by a newer Weir.
     */
    public static Optional<CheckpointCoverage> coverage(final JournalDirectory pipeline)
    {
        if (!Files.isDirectory(pipeline.checkpoints()))
        {
            return Optional.empty();
        }
        final CheckpointStore.Loaded loaded = new CheckpointStore(pipeline.checkpoints(), KEEP).loadNewestValid();
        return loaded == null ? Optional.empty() : Optional.of(CheckpointCoverage.of(CheckpointCodec.describe(loaded)));
    }
}
