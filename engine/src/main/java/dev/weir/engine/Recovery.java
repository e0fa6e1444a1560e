package dev.weir.engine;

import java.nio.ByteBuffer;

import dev.weir.engine.checkpoint.Checkpoint;
import dev.weir.engine.checkpoint.CheckpointCodec;
import dev.weir.engine.checkpoint.CheckpointStore;
import dev.weir.engine.checkpoint.OperatorStateCodec;
import dev.weir.engine.operator.WindowAggregator;
import dev.weir.engine.resume.CheckpointMismatchException;
import dev.weir.journal.HistoryBase;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.schema.NewerFormatException;

/**
 * Where a run resumes: the journal's newest valid checkpoint, read once from the store and checked
 * against the configuration of the run now starting, or the beginning of the journal. The stages are
 * built from it in order: the output sink first (it suppresses outputs up to {@link #resumeAfterOutput()}),
 * then the aggregator, whose state {@link #restoreInto(WindowAggregator)} rebuilds, and the reader, which
 * resumes after {@link #resumeAfterOffset()}.
 * <p>
 * A checkpoint whose state is in a format this Weir does not restore (older than
 * {@link OperatorStateCodec#OLDEST_RESTORED}: format 1, whose windows of one start fire in another order) is
 * <em>rebuilt</em>: its state is ignored and the run starts from the beginning of the journal, as if it had no
 * checkpoint, reproducing the outputs already stored and verifying them instead of writing them again
 * ({@link #rebuilt()}); the configuration must match all the same. A rebuild is refused when it cannot be exact:
 * retention removed the start of the journal. A state, envelope or checkpoint file of a newer format is refused
 * with {@link NewerFormatException}.
 * <p>
 * The checkpoint's bytes are held in memory, so a recovery stays valid while newer checkpoints replace
 * it on disk: resuming from an older valid checkpoint is what a crash after it would do. Not
 * thread-safe: the thread that starts the run owns it.
 */
public final class Recovery
{
    private static final Recovery NONE = new Recovery(null, null, null, 0, -1);

    private final CheckpointStore.Loaded loaded;
    private final Checkpoint checkpoint;
    private final Checkpoint rebuilt;
    private final int stateFormat;
    private final long rebuildFrom;

    private Recovery(final CheckpointStore.Loaded loaded, final Checkpoint checkpoint, final Checkpoint rebuilt, final int stateFormat,
        final long rebuildFrom)
    {
        this.loaded = loaded;
        this.checkpoint = checkpoint;
        this.rebuilt = rebuilt;
        this.stateFormat = stateFormat;
        this.rebuildFrom = rebuildFrom;
    }

    /**
     * Read the newest valid checkpoint of a pipeline.
     *
     * @param store         the pipeline's checkpoint store.
     * @param configuration the configuration string of the run now starting.
     * @param journal       the journal as the pipeline sees it (where a rebuild replays from).
     * @return the recovery: from the checkpoint, from the beginning if the store holds no valid checkpoint, or a
     *         rebuild from the beginning if its state is in a format this Weir does not restore.
     * @throws CheckpointMismatchException if the checkpoint was taken under another configuration, or its state
     *                                     must be rebuilt and retention removed the start of the journal.
     * @throws NewerFormatException        if the checkpoint was written by a newer Weir.
     */
    public static Recovery load(final CheckpointStore store, final String configuration, final JournalDirectory journal)
    {
        final CheckpointStore.Loaded newest = store.loadNewestValid();
        return newest == null ? NONE : of(newest, configuration, journal);
    }

    /**
     * Recover from a checkpoint payload held in memory (a Kafka record, a test) instead of a store: the payload
     * was taken over another journal holding the same events at other offsets, and this journal holds, from its
     * start, the events after those it covers; its output journal holds none of the outputs it covers. The
     * payload is relocated to this journal (resume from its first event, no output covered); nothing is written
     * to disk: the run's first checkpoint is its own.
     *
     * @param payload       a checkpoint payload, from its position to its limit (copied, not changed).
     * @param configuration the configuration string of the run now starting.
     * @param journal       the journal as the pipeline sees it (where a rebuild replays from).
     * @return the recovery: from the payload (sequence 0), or a rebuild as {@link #load} says.
     * @throws CheckpointMismatchException if the payload was taken under another configuration, or its state
     *                                     must be rebuilt and retention removed the start of the journal.
     * @throws NewerFormatException        if the payload was written by a newer Weir.
     */
    public static Recovery fromPayload(final ByteBuffer payload, final String configuration, final JournalDirectory journal)
    {
        return of(new CheckpointStore.Loaded(0, CheckpointCodec.relocate(payload, -1, OutputJournal.NONE), null), configuration, journal);
    }

    private static Recovery of(final CheckpointStore.Loaded newest, final String configuration, final JournalDirectory journal)
    {
        final Checkpoint checkpoint = CheckpointCodec.describe(newest);
        if (!checkpoint.configuration().equals(configuration))
        {
            throw new CheckpointMismatchException("the journal was processed with [" + checkpoint.configuration()
                + "], not [" + configuration + "]; run with the same flags, use 'weir replay' for another configuration, or run it as another pipeline (--pipeline NAME)");
        }
        final int format = CheckpointCodec.stateFormat(newest); // refuses a newer state now, before any stage is built
        if (format >= OperatorStateCodec.OLDEST_RESTORED)
        {
            return new Recovery(newest, checkpoint, null, format, -1);
        }
        return new Recovery(null, null, checkpoint, format, rebuildFrom(journal, checkpoint, format));
    }

    /**
     * What the next run of a pipeline does with its newest checkpoint (for inspection; the configuration is not
     * checked).
     *
     * @param loaded  the pipeline's newest valid checkpoint.
     * @param journal the journal as the pipeline sees it.
     * @return {@code "resumes from it"}, {@code "rebuilds it by replaying the journal from offset X"} or
     *         {@code "refuses it: ..."}.
     * @throws NewerFormatException if the checkpoint was written by a newer Weir.
     */
    public static String nextRun(final CheckpointStore.Loaded loaded, final JournalDirectory journal)
    {
        final int format = CheckpointCodec.stateFormat(loaded);
        if (format >= OperatorStateCodec.OLDEST_RESTORED)
        {
            return "resumes from it";
        }
        try
        {
            return "rebuilds it by replaying the journal from offset " + rebuildFrom(journal, CheckpointCodec.describe(loaded), format)
                + " (written by an older Weir, it cannot be converted)";
        }
        catch (final CheckpointMismatchException ex)
        {
            return "refuses it: " + ex.getMessage();
        }
    }

    /**
     * @return the journal offset a rebuild replays from: its first document's (a format-1 state does not record
     *         the oldest position it depends on).
     * @throws CheckpointMismatchException if retention removed the start of the journal.
     */
    private static long rebuildFrom(final JournalDirectory journal, final Checkpoint checkpoint, final int format)
    {
        final HistoryBase.Summary base = HistoryBase.read(journal).orElse(null);
        if (base != null && base.removedDocuments() > 0)
        {
            throw new CheckpointMismatchException("checkpoint " + checkpoint.sequence() + " of pipeline " + journal.pipelineName()
                + ": state format " + format + " was written by an older Weir and cannot be converted, and it cannot be rebuilt by replay:"
                + " retention removed the journal's events before offset " + base.firstOffset() + ", which it may depend on;"
                + " use 'weir replay' to process the journal again, or run it as another pipeline (--pipeline NAME)");
        }
        try (JournalReader reader = JournalReader.open(journal))
        {
            return reader.firstOffset();
        }
    }

    /**
     * @return a recovery from the beginning of the journal (a replay, or a journal never checkpointed).
     */
    public static Recovery none()
    {
        return NONE;
    }

    /**
     * @return the checkpoint resumed from, or null when starting from the beginning (a rebuild included).
     */
    public Checkpoint checkpoint()
    {
        return checkpoint;
    }

    /**
     * @return the checkpoint whose state this run rebuilds by replaying the journal from its beginning, or null.
     */
    public Checkpoint rebuilt()
    {
        return rebuilt;
    }

    /**
     * @return the state format of the checkpoint resumed from or rebuilt; 0 without one.
     */
    public int stateFormat()
    {
        return stateFormat;
    }

    /**
     * @param pipeline the pipeline's name.
     * @return for a rebuild, the sentence a run logs (once) and reports; null otherwise.
     */
    public String rebuildNote(final String pipeline)
    {
        return rebuilt == null ? null : "checkpoint " + rebuilt.sequence() + " of pipeline " + pipeline + ": state format " + stateFormat
            + " was written by an older Weir and cannot be converted: rebuilding it by replaying the journal from offset " + rebuildFrom;
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
     * starting from the beginning (or rebuilding by replay).
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
