package dev.weir.engine.checkpoint;

import dev.weir.engine.operator.WindowAggregator;
import dev.weir.journal.OutputJournal;

/**
 * Where a run resumes: the journal's newest valid checkpoint, read once from the store and checked
 * against the configuration of the run now starting, or the beginning of the journal. The stages are
 * built from it in order: the output sink first (it suppresses outputs up to {@link #resumeAfterOutput()}),
 * then the aggregator, whose state {@link #restoreInto(WindowAggregator)} rebuilds, and the reader, which
 * resumes after {@link #resumeAfterOffset()}.
 * <p>
 * The checkpoint's bytes are held in memory, so a recovery stays valid while newer checkpoints replace
 * it on disk: resuming from an older valid checkpoint is what a crash after it would do. Not
 * thread-safe: the thread that starts the run owns it.
 */
public final class Recovery
{
    private static final Recovery NONE = new Recovery(null, null);

    private final CheckpointStore.Loaded loaded;
    private final Checkpoint checkpoint;

    private Recovery(final CheckpointStore.Loaded loaded, final Checkpoint checkpoint)
    {
        this.loaded = loaded;
        this.checkpoint = checkpoint;
    }

    /**
     * Read the newest valid checkpoint of a store.
     *
     * @param store         the journal's checkpoint store.
     * @param configuration the configuration string of the run now starting.
     * @return the recovery, from the beginning if the store holds no valid checkpoint.
     * @throws CheckpointMismatchException if the checkpoint was taken under another configuration, or its
     *                                     state is in another format.
     */
    public static Recovery load(final CheckpointStore store, final String configuration)
    {
        final CheckpointStore.Loaded newest = store.loadNewestValid();
        if (newest == null)
        {
            return NONE;
        }
        final Checkpoint checkpoint = CheckpointCodec.describe(newest);
        if (!checkpoint.configuration().equals(configuration))
        {
            throw new CheckpointMismatchException("the journal was processed with [" + checkpoint.configuration()
                + "], not [" + configuration + "]; run with the same flags, use 'weir replay' for another configuration, or run it as another pipeline (--pipeline NAME)");
        }
        CheckpointCodec.describeState(newest); // refuses a state in another format now, before any stage is built
        return new Recovery(newest, checkpoint);
    }

    /**
     * @return a recovery from the beginning of the journal (a replay, or a journal never checkpointed).
     */
    public static Recovery none()
    {
        return NONE;
    }

    /**
     * @return the checkpoint resumed from, or null when starting from the beginning.
     */
    public Checkpoint checkpoint()
    {
        return checkpoint;
    }

    /**
     * @return the output journal position the checkpoint covers (outputs up to it are not reproduced), or
     *         {@link OutputJournal#NONE}.
     */
    public long resumeAfterOutput()
    {
        return checkpoint == null ? OutputJournal.NONE : checkpoint.outputPosition();
    }

    /**
     * @return the journal offset of the last event the checkpoint covers, or -1: reading resumes after it.
     */
    public long resumeAfterOffset()
    {
        return checkpoint == null ? -1 : checkpoint.sourceOffset();
    }

    /**
     * @return true if the run that wrote the checkpoint died while applying the end of its input, which
     *         must then be applied before any later event.
     */
    public boolean endPending()
    {
        return checkpoint != null && checkpoint.endPending();
    }

    /**
     * Rebuild the checkpoint's state in an aggregator built for the same configuration; does nothing when
     * starting from the beginning.
     *
     * @param aggregator a fresh aggregator.
     */
    public void restoreInto(final WindowAggregator aggregator)
    {
        if (loaded != null)
        {
            CheckpointCodec.restore(loaded, checkpoint.configuration(), aggregator);
        }
    }
}
