package dev.weir.engine.retention;

import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.weir.engine.checkpoint.Checkpoint;
import dev.weir.engine.checkpoint.CheckpointCodec;
import dev.weir.engine.checkpoint.CheckpointStore;
import dev.weir.engine.expr.ColumnProjection;
import dev.weir.journal.DeliveryPositions;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputJournal;

/**
 * The retention floor of a journal: the first events offset, and per pipeline the first output position,
 * that something may still read, so that retention never deletes a roll cycle holding one of them, and
 * which holder sets each, so that a stalled pipeline or an abandoned delivery shows.
 * <p>
 * The holders, read from the journal's directory alone (no database is reached):
 * <ul>
 *   <li>each pipeline's newest valid checkpoint ({@link CheckpointStore#loadNewestValid()}, falling back
 *       past corrupt newer files as recovery does): recovery positions its reader on the event the
 *       checkpoint covers last and its output cursor on the output it covers last (both {@code seekAfter}
 *       need that document present), so it needs events from {@link Checkpoint#sourceOffset()} and outputs
 *       from {@link Checkpoint#outputPosition()}, inclusive ({@link #FROM_START} when either is -1);</li>
 *   <li>each pipeline that ran without leaving a valid checkpoint (outputs, checkpoint files none of which
 *       is valid, or a metrics file, which a run writes at its start): its next run starts from the
 *       beginning, so it needs every event and every output;</li>
 *   <li>each PostgreSQL delivery of a pipeline's output journal, by its local record
 *       ({@link DeliveryPositions}): outputs from the position delivered, inclusive (the sink positions on it);
 *       every output before its first commit, or when its record cannot be read. An abandoned delivery holds
 *       until its record is deleted.</li>
 * </ul>
 * Not holders: an ingest's resume (kept in the history base), and the readers that reread the events
 * before a resume point to rebuild key ids (key tuples, dictionaries: also kept in the history base).
 * <p>
 * {@link #of(JournalDirectory)} reads the disk once and creates nothing. The result is immutable and
 * thread-safe; it is a snapshot, which a pipeline or delivery running meanwhile only moves forward (a
 * delivery lowers its record only when its database was reset).
 */
public final class RetentionFloor
{
    /** A holder that needs everything from the start: every offset and position is at least this. */
    public static final long FROM_START = 0;
    /** Nothing is held: no offset or position is at least this. */
    public static final long NOT_HELD = Long.MAX_VALUE;

    private final long eventsFloor;
    private final RetentionHolder eventsHolder;
    private final Map<String, PipelineFloor> pipelines;
    private final List<RetentionHolder> holders;

    private RetentionFloor(final List<RetentionHolder> holders, final Map<String, PipelineFloor> pipelines)
    {
        long floor = NOT_HELD;
        RetentionHolder by = null;
        for (final RetentionHolder holder : holders)
        {
            if (holder.eventsFrom() < floor)
            {
                floor = holder.eventsFrom();
                by = holder;
            }
        }
        this.eventsFloor = floor;
        this.eventsHolder = by;
        this.holders = List.copyOf(holders);
        this.pipelines = Collections.unmodifiableMap(new LinkedHashMap<>(pipelines));
    }

    /**
     * Read a journal's retention floor.
     *
     * @param journal the journal (any pipeline's view of it: every pipeline is read).
     * @return the floor, as the disk holds it now.
     * @throws java.io.UncheckedIOException if a directory or file cannot be read.
     */
    public static RetentionFloor of(final JournalDirectory journal)
    {
        final List<RetentionHolder> holders = new ArrayList<>();
        final Map<String, PipelineFloor> pipelines = new LinkedHashMap<>();
        for (final String name : pipelineNames(journal))
        {
            final JournalDirectory pipeline = journal.pipeline(name);
            final List<RetentionHolder> own = new ArrayList<>();
            final List<Integer> keyColumns = new ArrayList<>();
            final RetentionHolder checkpoint = checkpointHolder(pipeline, keyColumns);
            if (checkpoint != null)
            {
                own.add(checkpoint);
            }
            for (final DeliveryPositions.DeliveryPosition delivery : DeliveryPositions.read(pipeline.pipelineRoot()))
            {
                own.add(deliveryHolder(pipeline, delivery));
            }
            long outputFloor = NOT_HELD;
            RetentionHolder by = null;
            for (final RetentionHolder holder : own)
            {
                if (holder.outputsFrom() < outputFloor)
                {
                    outputFloor = holder.outputsFrom();
                    by = holder;
                }
            }
            holders.addAll(own);
            pipelines.put(name, new PipelineFloor(name, outputFloor, by, keyColumns));
        }
        return new RetentionFloor(holders, pipelines);
    }

    /**
     * The pipelines {@link JournalDirectory#pipelines()} finds, and the default one if it has only a
     * metrics file (a first run killed before any output or checkpoint) or delivery records.
     */
    private static List<String> pipelineNames(final JournalDirectory journal)
    {
        final List<String> names = new ArrayList<>(journal.pipelines());
        if (!names.contains(JournalDirectory.DEFAULT_PIPELINE))
        {
            final JournalDirectory base = journal.pipeline(JournalDirectory.DEFAULT_PIPELINE);
            if (Files.isRegularFile(base.metricsFile()) || !DeliveryPositions.read(base.pipelineRoot()).isEmpty())
            {
                names.add(0, JournalDirectory.DEFAULT_PIPELINE);
            }
        }
        return names;
    }

    private static RetentionHolder checkpointHolder(final JournalDirectory pipeline, final List<Integer> keyColumns)
    {
        final String name = pipeline.pipelineName();
        int files = 0;
        String unreadable = null;
        if (Files.isDirectory(pipeline.checkpoints()))
        {
            final CheckpointStore store = new CheckpointStore(pipeline.checkpoints(), 2); // reads only: no write, no prune
            files = store.files().size();
            final CheckpointStore.Loaded newest = store.loadNewestValid();
            if (newest != null)
            {
                try
                {
                    final Checkpoint checkpoint = CheckpointCodec.describe(newest);
                    keyColumns.addAll(tupleKeyColumns(pipeline, checkpoint.configuration()));
                    final int skipped = store.skippedInvalid();
                    return new RetentionHolder(RetentionHolder.Kind.PIPELINE_CHECKPOINT, name, from(checkpoint.sourceOffset()),
                        from(checkpoint.outputPosition()), "checkpoint " + checkpoint.sequence() + " written "
                        + Instant.ofEpochMilli(checkpoint.writtenAtMillis())
                        + (skipped > 0 ? " (" + skipped + " newer checkpoint file" + (skipped > 1 ? "s" : "") + " not valid, skipped as recovery does)" : ""));
                }
                catch (final RuntimeException ex)
                {
                    // a recovery would refuse it too: hold everything until a person decides
                    keyColumns.clear();
                    unreadable = "its newest valid checkpoint " + newest.file().getFileName() + " cannot be read (" + ex.getMessage() + ")";
                }
            }
        }
        final String trace;
        if (unreadable != null)
        {
            trace = unreadable;
        }
        else if (files > 0)
        {
            trace = "none of its " + files + " checkpoint file" + (files > 1 ? "s is" : " is") + " valid";
        }
        else if (hasOutputs(pipeline))
        {
            trace = "it has outputs but no checkpoint";
        }
        else if (Files.isRegularFile(pipeline.metricsFile()))
        {
            trace = "it has run (metrics file) but has no checkpoint yet";
        }
        else
        {
            return null; // never ran: it reads nothing until it starts, and then starts from the oldest event left
        }
        return new RetentionHolder(RetentionHolder.Kind.PIPELINE_WITHOUT_CHECKPOINT, name, FROM_START, FROM_START,
            trace + ": its next run starts from the beginning, so it holds every event and output");
    }

    private static List<Integer> tupleKeyColumns(final JournalDirectory pipeline, final String configuration)
    {
        final int[] columns = ColumnProjection.keyColumnsOf(pipeline.schema(), configuration);
        final List<Integer> list = new ArrayList<>();
        if (ColumnProjection.keysByTuple(pipeline.schema(), columns))
        {
            for (final int column : columns)
            {
                list.add(column);
            }
        }
        return list;
    }

    private static boolean hasOutputs(final JournalDirectory pipeline)
    {
        if (!Files.isDirectory(pipeline.resultsQueue()) || !hasFiles(pipeline.resultsQueue()))
        {
            return false;
        }
        try (OutputJournal outputs = OutputJournal.open(pipeline))
        {
            return outputs.lastPosition() != OutputJournal.NONE;
        }
    }

    private static boolean hasFiles(final Path directory)
    {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory, "*.cq4"))
        {
            return entries.iterator().hasNext();
        }
        catch (final java.io.IOException ex)
        {
            throw new java.io.UncheckedIOException("cannot list " + directory, ex);
        }
    }

    private static RetentionHolder deliveryHolder(final JournalDirectory pipeline, final DeliveryPositions.DeliveryPosition delivery)
    {
        final String detail;
        if (delivery.problem() != null)
        {
            detail = "delivery record " + pipeline.root().relativize(delivery.file()) + " cannot be read (" + delivery.problem()
                + "): it holds every output until it is rewritten by its delivery or deleted";
        }
        else
        {
            detail = "delivery into " + delivery.table() + " at " + delivery.target() + ", updated " + delivery.updated()
                + (delivery.needsEverything() ? ", nothing committed yet" : "")
                + " (record " + pipeline.root().relativize(delivery.file()) + ")";
        }
        return new RetentionHolder(RetentionHolder.Kind.POSTGRES_DELIVERY, pipeline.pipelineName(), NOT_HELD, from(delivery.position()), detail);
    }

    private static long from(final long lastCovered)
    {
        return lastCovered < 0 ? FROM_START : lastCovered;
    }

    /**
     * @param offsetOrPosition an offset or position of a floor or holder.
     * @return it in words: {@code the start}, {@code nothing held}, or the number.
     */
    public static String describe(final long offsetOrPosition)
    {
        return offsetOrPosition == FROM_START ? "the start" : offsetOrPosition == NOT_HELD ? "nothing held" : Long.toString(offsetOrPosition);
    }

    /**
     * @return the first events offset any holder may still read ({@link #FROM_START}: all of them), or
     *         {@link #NOT_HELD} if nothing holds the events.
     */
    public long eventsFloor()
    {
        return eventsFloor;
    }

    /**
     * @return the holder that sets {@link #eventsFloor()} (the first found among equals), or null if nothing holds.
     */
    public RetentionHolder eventsHolder()
    {
        return eventsHolder;
    }

    /**
     * @return the pipelines found, the default one first, then by name.
     */
    public List<String> pipelines()
    {
        return List.copyOf(pipelines.keySet());
    }

    /**
     * @param pipeline a pipeline's name.
     * @return its floor, or null if the journal has no such pipeline (it then holds nothing).
     */
    public PipelineFloor pipeline(final String pipeline)
    {
        return pipelines.get(pipeline);
    }

    /**
     * @param pipeline a pipeline's name.
     * @return the first position of its output journal any holder may still read, or {@link #NOT_HELD}.
     */
    public long outputFloor(final String pipeline)
    {
        final PipelineFloor floor = pipelines.get(pipeline);
        return floor == null ? NOT_HELD : floor.outputFloor();
    }

    /**
     * @return every holder: per pipeline (in {@link #pipelines()} order) its checkpoint or the lack of one,
     *         then its deliveries.
     */
    public List<RetentionHolder> holders()
    {
        return holders;
    }

    @Override
    public String toString()
    {
        return "events floor " + describe(eventsFloor) + (eventsHolder == null ? "" : " held by " + eventsHolder) + ", pipelines " + pipelines.values();
    }
}
