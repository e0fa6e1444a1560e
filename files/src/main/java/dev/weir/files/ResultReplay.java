package dev.weir.files;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

import dev.weir.engine.Pipeline;
import dev.weir.engine.PipelineBuilder;
import dev.weir.engine.RunSummary;
import dev.weir.engine.Weir;
import dev.weir.engine.emit.LateListener;
import dev.weir.engine.emit.ResultListener;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.OffsetUnavailableException;
import dev.weir.journal.files.AtomicTextFile;
import dev.weir.journal.retention.ArchiveView;

/**
 * A replay of a journal into files, as {@code weir replay} does it: a range of the journal reprocessed as a batch
 * from a clean state (no checkpoint, no output journal; the journal is only read), with any pipeline configuration,
 * into one results CSV or into date partitions ({@link PartitionedResults}), and optionally a late-events CSV. Every
 * file is replaced atomically once complete, so a replay can be run again and never appends.
 * <p>
 * Into date partitions, a partition is only ever replaced by a complete recomputation of it: the whole journal is
 * replayed, so a range that leaves out any event is refused. {@link Builder#days} recomputes chosen days: it replays
 * the whole journal and keeps only the rows of windows starting on those days (UTC date of {@code window_start}),
 * which are the rows, order and versions a full replay writes into those partitions; it replaces those days'
 * partitions, removes those of them that got no row, and leaves every other partition as it was.
 * <p>
 * After retention removed the journal's oldest cycles ({@link RetainedEvents}): a replay from a removed offset, or a
 * rerun of days a removed event could belong to, is refused, naming the oldest offset and day still available and
 * the archive; a replay from the start replays what is left and says so in a note ({@link Outcome#notes()}), and the
 * partitions of days a removed event could belong to are left as they are. With {@link Builder#archive} it reads the
 * archived cycles, then the live ones, as one journal at the same offsets ({@link ArchiveView}).
 * <p>
 * Immutable once built. {@link #run()} runs on the calling thread; {@link #processedEvents()} and
 * {@link #processedOffset()} may be read from any thread while it runs (for a progress display).
 */
public final class ResultReplay
{
    private final Path journal;
    private final RowColumns columns;
    private final UnaryOperator<PipelineBuilder> configuration;
    private final long from;
    private final long to;
    private final DayRange days;
    private final Path archive;
    private final Path results;
    private final Path partitions;
    private final PartitionedResults.Format format;
    private final Path late;
    /** The pipeline while it runs, or null: read by any thread for progress. */
    private volatile Pipeline running;

    private ResultReplay(final Builder builder)
    {
        this.journal = builder.journal;
        this.columns = builder.columns;
        this.configuration = builder.configuration;
        this.from = builder.from;
        this.to = builder.to;
        this.days = builder.days;
        this.archive = builder.archive;
        this.results = builder.results;
        this.partitions = builder.partitions;
        this.format = builder.format;
        this.late = builder.late;
    }

    /**
     * @param journal the journal directory to replay, only read.
     * @return a builder of the replay.
     */
    public static Builder of(final Path journal)
    {
        return new Builder(Objects.requireNonNull(journal, "journal"));
    }

    /**
     * What a replay did.
     *
     * @param summary    the pipeline's summary.
     * @param rows       the result rows written (into the file, or into the partitions).
     * @param partitions the date partitions replaced (0 for a results file).
     * @param removed    the partitions of {@link Builder#days} removed because those days got no row.
     * @param notes      what the caller should tell its user: events retention removed before the replayed range, partitions
     *                   left as they are; one line each, in order.
     */
    public record Outcome(RunSummary summary, long rows, int partitions, int removed, List<String> notes)
    {
    }

    /**
     * Replay, write the files and replace them.
     *
     * @return what the replay did.
     * @throws ReplayRefusedException if the range or days cannot be replayed (nothing is written).
     * @throws OffsetUnavailableException if the range starts at an offset the journal does not hold.
     * @throws dev.weir.journal.JournalRefusedException if the directory is not a journal or the archive does not match it.
     * @throws ExportRefusedException if the columns are not in the journal.
     * @throws java.io.UncheckedIOException if a file cannot be written.
     */
    public Outcome run()
    {
        final JournalDirectory live = JournalDirectory.open(journal);
        if (archive == null)
        {
            final List<String> notes = new ArrayList<>();
            final RetainedEvents retained = checkRetained(live, notes);
            return replay(live, journal, retained, notes);
        }
        try (ArchiveView view = ArchiveView.open(live, archive))
        {
            return replay(view.directory(), view.directory().root(), null, new ArrayList<>());
        }
    }

    /** @return the events the replay has processed so far, 0 before it starts (any thread). */
    public long processedEvents()
    {
        final Pipeline pipeline = running;
        return pipeline == null ? 0 : pipeline.processedEvents();
    }

    /** @return the journal offset the replay has reached, or -1 (any thread). */
    public long processedOffset()
    {
        final Pipeline pipeline = running;
        return pipeline == null ? -1 : pipeline.processedOffset();
    }

    /**
     * Refuse a replay of what retention removed from the journal, or note what a replay from its start leaves out.
     *
     * @return what retention removed, or null.
     */
    private RetainedEvents checkRetained(final JournalDirectory directory, final List<String> notes)
    {
        final RetainedEvents retained = RetainedEvents.of(directory).orElse(null);
        if (days != null && retained != null && retained.mayHold(days))
        {
            throw new ReplayRefusedException(retained.refusalOf(days));
        }
        if (from >= 0)
        {
            try (JournalReader reader = JournalReader.open(directory))
            {
                reader.seek(from);
            }
            catch (final OffsetUnavailableException ex)
            {
                if (retained == null)
                {
                    throw ex;
                }
                throw new ReplayRefusedException(retained.refusalFrom(from));
            }
        }
        if (retained != null && from < retained.oldestOffset())
        {
            notes.add(retained.replayNote());
        }
        return retained;
    }

    private Outcome replay(final JournalDirectory directory, final Path path, final RetainedEvents retained, final List<String> notes)
    {
        if (partitions != null)
        {
            return replayIntoPartitions(directory, path, retained, notes);
        }
        try (KeyText keys = columns.keyText(directory);
             AtomicTextFile resultFile = new AtomicTextFile(results);
             AtomicTextFile lateFile = late == null ? null : new AtomicTextFile(late))
        {
            final ResultRow rowFormat = columns.rows(directory, keys);
            final LateListener lateRows = lateFile == null ? LateListener.NONE : new ResultCsv.Late(lateFile, rowFormat);
            final RunSummary summary = runToEnd(path, new ResultCsv(resultFile, rowFormat), lateRows, keys);
            resultFile.commit();
            if (lateFile != null)
            {
                lateFile.commit();
            }
            return new Outcome(summary, resultFile.lines() - 1, 0, 0, List.copyOf(notes));
        }
    }

    private Outcome replayIntoPartitions(final JournalDirectory directory, final Path path, final RetainedEvents retained,
        final List<String> notes)
    {
        if (from >= 0 || to != Long.MAX_VALUE)
        {
            final EventSpan span = EventSpan.of(directory);
            if (!span.within(from, to))
            {
                final String range = ((from >= 0 ? " --from " + from : "") + (to != Long.MAX_VALUE ? " --to " + to : "")).substring(1);
                throw new ReplayRefusedException(range + " leaves out events of " + journal + " (it holds " + span + ")"
                    + ": a replay of part of a journal cannot recompute a date partition completely (its windows may hold events "
                    + "outside the range), so it replaces none; recompute whole days with --days YYYY-MM-DD[..YYYY-MM-DD], "
                    + "or write part of a journal to --results FILE");
            }
        }
        final long firstDay = retained == null ? Long.MIN_VALUE : retained.oldestCompleteDay();
        try (KeyText keys = columns.keyText(directory);
             PartitionedResults written = new PartitionedResults(partitions, format, columns.rows(directory, keys), days, firstDay);
             AtomicTextFile lateFile = late == null ? null : new AtomicTextFile(late))
        {
            final LateListener lateRows = lateFile == null ? LateListener.NONE : new ResultCsv.Late(lateFile, columns.rows(directory, keys));
            final RunSummary summary = runToEnd(path, written, lateRows, keys);
            final int replaced = written.commit().size();
            if (firstDay != Long.MIN_VALUE)
            {
                notes.add(retained.partitionNote(written.skipped()));
            }
            if (lateFile != null)
            {
                lateFile.commit();
            }
            return new Outcome(summary, written.rows(), replaced, written.removed(), List.copyOf(notes));
        }
    }

    /** Run the pipeline to the end of the range, the key text handed to its engine thread and back. */
    private RunSummary runToEnd(final Path path, final ResultListener rows, final LateListener lateRows, final KeyText keys)
    {
        keys.handOff();
        final Pipeline pipeline = configuration.apply(Weir.pipeline().journal(path)).replayRange(from, to).onResult(rows).onLate(lateRows)
            .build();
        running = pipeline;
        try
        {
            return pipeline.runToEnd();
        }
        finally
        {
            keys.handOff();
        }
    }

    /**
     * What to replay and where to write it. Not thread-safe: one thread builds.
     */
    public static final class Builder
    {
        private final Path journal;
        private RowColumns columns;
        private UnaryOperator<PipelineBuilder> configuration = UnaryOperator.identity();
        private long from = -1;
        private long to = Long.MAX_VALUE;
        private DayRange days;
        private Path archive;
        private Path results;
        private Path partitions;
        private PartitionedResults.Format format;
        private Path late;

        private Builder(final Path journal)
        {
            this.journal = journal;
        }

        /**
         * @param rowColumns the pipeline's key and value columns, aggregations and kinds of rows: the columns of the
         *                   files. Required.
         * @return this builder.
         */
        public Builder columns(final RowColumns rowColumns)
        {
            this.columns = Objects.requireNonNull(rowColumns, "rowColumns");
            return this;
        }

        /**
         * @param pipeline configures the replay's pipeline (windows, lateness, aggregations, dedupe...), given a
         *                 builder over the journal; its journal, range and listeners are the replay's.
         * @return this builder.
         */
        public Builder pipeline(final UnaryOperator<PipelineBuilder> pipeline)
        {
            this.configuration = Objects.requireNonNull(pipeline, "pipeline");
            return this;
        }

        /**
         * @param first the first offset, or -1 for the journal's first (the default).
         * @param last  the last offset, inclusive, or {@link Long#MAX_VALUE} for the journal's last (the default).
         * @return this builder.
         */
        public Builder range(final long first, final long last)
        {
            this.from = first;
            this.to = last;
            return this;
        }

        /**
         * @param dayRange the UTC days whose date partitions are recomputed (with {@link #partitions}, the whole journal
         *                 replayed).
         * @return this builder.
         */
        public Builder days(final DayRange dayRange)
        {
            this.days = Objects.requireNonNull(dayRange, "dayRange");
            return this;
        }

        /**
         * @param dir where {@code weir retain --archive} moved the journal's oldest cycles: read before the journal's.
         * @return this builder.
         */
        public Builder archive(final Path dir)
        {
            this.archive = Objects.requireNonNull(dir, "dir");
            return this;
        }

        /**
         * @param file the results CSV to write (replaced atomically).
         * @return this builder.
         */
        public Builder results(final Path file)
        {
            this.results = Objects.requireNonNull(file, "file");
            return this;
        }

        /**
         * @param dir        the directory of the date partitions {@code DIR/date=YYYY-MM-DD/results.<format>}.
         * @param fileFormat CSV or JSON Lines.
         * @return this builder.
         */
        public Builder partitions(final Path dir, final PartitionedResults.Format fileFormat)
        {
            this.partitions = Objects.requireNonNull(dir, "dir");
            this.format = Objects.requireNonNull(fileFormat, "fileFormat");
            return this;
        }

        /**
         * @param file the late-events CSV to write (replaced atomically): every late event of the replay.
         * @return this builder.
         */
        public Builder late(final Path file)
        {
            this.late = Objects.requireNonNull(file, "file");
            return this;
        }

        /**
         * @return the replay, to run with {@link ResultReplay#run()}.
         * @throws IllegalArgumentException without columns, without exactly one of a results file and partitions, with
         *                                  days but no partitions or with days and a range, or with a range that ends
         *                                  before it starts.
         */
        public ResultReplay build()
        {
            if (columns == null)
            {
                throw new IllegalArgumentException("columns(...) is required: the files' key and value columns");
            }
            if ((results == null) == (partitions == null))
            {
                throw new IllegalArgumentException("give exactly one of results(file) and partitions(dir, format)");
            }
            if (days != null && (partitions == null || from >= 0 || to != Long.MAX_VALUE))
            {
                throw new IllegalArgumentException("days(...) recomputes date partitions from the whole journal: give it with "
                    + "partitions(dir, format) and no range");
            }
            if (from >= 0 && to < from)
            {
                throw new IllegalArgumentException("the range ends at " + to + ", before its first offset " + from);
            }
            return new ResultReplay(this);
        }
    }
}
