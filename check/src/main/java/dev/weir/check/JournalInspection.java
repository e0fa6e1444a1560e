package dev.weir.check;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.weir.engine.retention.RetentionFloor;
import dev.weir.engine.status.CheckpointCoverage;
import dev.weir.engine.status.EngineStat;
import dev.weir.engine.status.NewestCheckpoint;
import dev.weir.journal.EventLag;
import dev.weir.journal.HistoryBase;
import dev.weir.journal.IngestLog;
import dev.weir.journal.JournalCycles;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRefusedException;
import dev.weir.journal.JournalRollCycle;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.retention.HeldRemovedCycles;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.StringDictionaries;
import dev.weir.journal.retention.OutputHistory;
import dev.weir.journal.schema.NewerFormatException;

/**
 * What a journal holds, as {@code weir inspect} shows it, read without changing anything: its columns and their
 * generations, roll cycle, counts, distinct string values and dictionary snapshot; its reference tables
 * ({@link TableContents}); how far each named pipeline got
 * ({@link PipelineProgress}); for every pipeline shown, its output journal's counts and newest valid checkpoint
 * ({@link PipelineInspection}); its cycle files on disk; and what retention removed and still may not remove.
 * Immutable once made; {@link #of} runs on the caller's thread, and may run while pipelines run on the journal.
 *
 * @param root           the journal's directory.
 * @param formatVersion  the journal's format version.
 * @param schema         its columns (of no use while its events are pending).
 * @param eventsPending  true if a table ingest made it and no event ingest has fixed its events' columns yet.
 * @param schemaHistory  its generations, the first the columns it was created with (one unless it gained columns).
 * @param rollCycle      its roll cycle.
 * @param counts         its events, rejected lines, ingests, heartbeats and offsets.
 * @param distinctValues the distinct values of each string column, in column order ({@code key} alone for the
 *                       default columns).
 * @param tables         its reference tables, in definition order.
 * @param snapshotStatus how the dictionaries and counts were opened: {@code none}, {@code ignored: WHY}, or where the
 *                       snapshot they started from was taken ({@link StringDictionaries#snapshotStatus()}).
 * @param pipelineNames  the pipelines that have processed the journal ({@link JournalDirectory#pipelines()}).
 * @param progress       one per pipeline of {@code pipelineNames}.
 * @param pipelines      the pipelines shown: the one asked for, or every pipeline (the default one when none has run).
 * @param disk           the events queue's cycle files, then each pipeline's results queue's (the default pipeline's
 *                       only if it has files, in a journal without named pipelines).
 * @param heldOpen       removed cycle files a process still holds open, or empty where this system cannot tell.
 * @param removedEvents  what retention removed from the events, or empty if nothing.
 * @param removedOutputs what retention removed from each pipeline's output journal, those it removed from.
 * @param floor          the first events offset and output positions something still needs, and who.
 */
public record JournalInspection(
    Path root,
    int formatVersion,
    JournalSchema schema,
    boolean eventsPending,
    List<JournalDirectory.Generation> schemaHistory,
    JournalRollCycle rollCycle,
    IngestLog.Counts counts,
    List<DistinctValues> distinctValues,
    List<TableContents> tables,
    String snapshotStatus,
    List<String> pipelineNames,
    List<PipelineProgress> progress,
    List<PipelineInspection> pipelines,
    List<QueueFiles> disk,
    Optional<HeldRemovedCycles> heldOpen,
    Optional<HistoryBase.Summary> removedEvents,
    List<RemovedOutputs> removedOutputs,
    RetentionFloor floor)
{
    /**
     * The distinct values of a string column.
     *
     * @param column the column's name.
     * @param count  its distinct values.
     */
    public record DistinctValues(String column, int count)
    {
    }

    /**
     * How far a pipeline got: the process running it, if any, and its newest valid checkpoint.
     *
     * @param name            the pipeline's name.
     * @param running         the process running it now, or empty.
     * @param checkpoint      what its newest valid checkpoint covers, or empty without one.
     * @param eventsAfterCheckpoint the events the journal holds after that checkpoint (0 without one).
     */
    public record PipelineProgress(String name, Optional<RunningProcess> running, Optional<CheckpointCoverage> checkpoint, long eventsAfterCheckpoint)
    {
    }

    /**
     * A process running a pipeline, from its metrics file.
     *
     * @param pid           its process id.
     * @param appliedOffset the journal offset of the last event it applied, or -1 before the first.
     * @param eventsAfter   the events the journal holds after that offset (its lag; 0 before the first).
     */
    public record RunningProcess(long pid, long appliedOffset, long eventsAfter)
    {
    }

    /**
     * One pipeline's outputs and newest checkpoint.
     *
     * @param name               the pipeline's name.
     * @param results            the results its output journal holds.
     * @param lateEvents         the late events it holds.
     * @param lastOutputPosition its last output position, or -1 if empty.
     * @param checkpoint         its newest valid checkpoint.
     */
    public record PipelineInspection(String name, long results, long lateEvents, long lastOutputPosition, NewestCheckpoint checkpoint)
    {
    }

    /**
     * The cycle files of one queue.
     *
     * @param name   {@code events}, or {@code results of NAME}.
     * @param cycles its cycle files.
     */
    public record QueueFiles(String name, JournalCycles cycles)
    {
    }

    /**
     * What retention removed from a pipeline's output journal.
     *
     * @param pipeline the pipeline's name.
     * @param history  what was removed.
     */
    public record RemovedOutputs(String pipeline, OutputHistory history)
    {
    }

    /**
     * Compact constructor: the lists are copied, unmodifiable.
     */
    public JournalInspection
    {
        schemaHistory = List.copyOf(schemaHistory);
        distinctValues = List.copyOf(distinctValues);
        tables = List.copyOf(tables);
        pipelineNames = List.copyOf(pipelineNames);
        progress = List.copyOf(progress);
        pipelines = List.copyOf(pipelines);
        disk = List.copyOf(disk);
        removedOutputs = List.copyOf(removedOutputs);
    }

    /**
     * @param journal a journal's directory.
     * @return what it holds, every pipeline shown.
     * @throws JournalRefusedException if it is not a journal (or one this build refuses).
     * @throws NewerFormatException    if a file or document it reads was written by a newer Weir.
     */
    public static JournalInspection of(final Path journal)
    {
        return of(JournalDirectory.open(journal), null);
    }

    /**
     * @param journal  an open journal.
     * @param pipeline the one pipeline to show, or null for every pipeline (the default one when none has run).
     * @return what it holds.
     * @throws IllegalArgumentException if the pipeline's name breaks the rule, or names a pipeline that has not run on it.
     * @throws NewerFormatException     if a file or document it reads was written by a newer Weir.
     */
    public static JournalInspection of(final JournalDirectory journal, final String pipeline)
    {
        final List<String> names = journal.pipelines();
        final List<JournalDirectory> shown = pipeline != null ? List.of(existing(journal, pipeline))
            : names.isEmpty() ? List.of(journal) : names.stream().map(journal::pipeline).toList();
        final IngestLog.Counts counts;
        final List<DistinctValues> distinct;
        final String snapshot;
        try (StringDictionaries dictionaries = StringDictionaries.open(journal))
        {
            counts = dictionaries.counts();
            distinct = distinctValues(journal.schema(), dictionaries);
            snapshot = dictionaries.snapshotStatus();
        }
        final List<PipelineProgress> progress = new ArrayList<>();
        for (final String name : names)
        {
            progress.add(progress(journal, journal.pipeline(name), counts.lastEventOffset()));
        }
        final List<PipelineInspection> inspected = new ArrayList<>();
        for (final JournalDirectory directory : shown)
        {
            inspected.add(inspection(directory));
        }
        final List<String> everyPipeline = names.isEmpty() ? List.of(JournalDirectory.DEFAULT_PIPELINE) : names;
        final List<QueueFiles> disk = new ArrayList<>(List.of(new QueueFiles("events", JournalCycles.events(journal))));
        final List<RemovedOutputs> removed = new ArrayList<>();
        for (final String name : everyPipeline)
        {
            final JournalCycles results = JournalCycles.results(journal.pipeline(name));
            if (!results.cycles().isEmpty() || !names.isEmpty())
            {
                disk.add(new QueueFiles("results of " + name, results));
            }
            OutputHistory.read(journal.pipeline(name)).ifPresent(history -> removed.add(new RemovedOutputs(name, history)));
        }
        return new JournalInspection(journal.root(), journal.formatVersion(), journal.schema(), journal.eventsPending(), journal.schemaHistory(),
            journal.rollCycle(), counts, distinct, TableContents.of(journal), snapshot, names, progress, inspected, disk, Optional.ofNullable(HeldRemovedCycles.scan(journal.root())),
            HistoryBase.read(journal), removed, RetentionFloor.of(journal));
    }

    private static JournalDirectory existing(final JournalDirectory journal, final String name)
    {
        final JournalDirectory pipeline = journal.pipeline(name);
        if (!JournalDirectory.DEFAULT_PIPELINE.equals(pipeline.pipelineName()) && !Files.isDirectory(pipeline.pipelineRoot()))
        {
            throw new IllegalArgumentException("journal " + journal.root() + " has no pipeline '" + name + "'");
        }
        return pipeline;
    }

    private static PipelineInspection inspection(final JournalDirectory directory)
    {
        try (OutputJournal output = OutputJournal.open(directory))
        {
            final long[] tally = new long[2]; // results, late events
            output.readAll(stored -> tally[stored.isResult() ? 0 : 1]++);
            return new PipelineInspection(directory.pipelineName(), tally[0], tally[1], output.lastPosition(), NewestCheckpoint.read(directory));
        }
    }

    private static PipelineProgress progress(final JournalDirectory journal, final JournalDirectory pipeline, final long lastEventOffset)
    {
        final Optional<CheckpointCoverage> checkpoint = NewestCheckpoint.coverage(pipeline);
        final long lag = checkpoint.map(c -> c.sourceOffset() >= lastEventOffset ? 0 : EventLag.after(journal, c.sourceOffset())).orElse(0L);
        return new PipelineProgress(pipeline.pipelineName(), running(pipeline, lastEventOffset), checkpoint, lag);
    }

    /**
     * @return the process running a pipeline, from its metrics file; empty if none runs, or the file cannot be read yet.
     */
    private static Optional<RunningProcess> running(final JournalDirectory pipeline, final long lastEventOffset)
    {
        if (!Files.isRegularFile(pipeline.metricsFile()))
        {
            return Optional.empty();
        }
        final EngineStat stat;
        try
        {
            stat = EngineStat.read(pipeline);
        }
        catch (final IllegalStateException unreadable) // being created, or not a metrics file: nothing known
        {
            return Optional.empty();
        }
        if (!stat.running())
        {
            return Optional.empty();
        }
        final long applied = stat.value(EngineStat.Kind.OFFSET_APPLIED);
        if (applied < 0)
        {
            return Optional.of(new RunningProcess(stat.pid(), -1, 0));
        }
        return Optional.of(new RunningProcess(stat.pid(), applied, applied >= lastEventOffset ? 0 : EventLag.after(pipeline, applied)));
    }

    private static List<DistinctValues> distinctValues(final JournalSchema schema, final StringDictionaries dictionaries)
    {
        if (schema.isDefault())
        {
            return List.of(new DistinctValues("key", dictionaries.keyDictionary().size()));
        }
        final List<DistinctValues> values = new ArrayList<>();
        for (int c = 0; c < schema.size(); c++)
        {
            if (schema.column(c).type() == ColumnType.STRING)
            {
                values.add(new DistinctValues(schema.column(c).name(), dictionaries.dictionary(c).size()));
            }
        }
        return values;
    }
}
