package dev.weir.files;

import java.nio.file.Path;
import java.util.Objects;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.codec.LateEventDecoder;
import dev.weir.journal.codec.ResultFields;
import dev.weir.journal.files.AtomicTextFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a pipeline's results and late events from its output journal into files: the results as one CSV file
 * ({@code window_start,window_end,KEY,count,sum,min,max,version}, then the columns {@link RowColumns} adds; with named
 * aggregates a column per aggregate instead of count, sum, min and max: {@link ResultRow}) or as
 * date partitions ({@link PartitionedResults}: CSV or JSON Lines, by the UTC date of {@code window_start}), and the
 * late events as one CSV file ({@code event_id,event_time,KEY,VALUE}; no VALUE with named aggregates), in output order. Each file is written whole
 * to a temporary file and renamed over the previous one: a reader sees the old file or the new one, never a part.
 * Because the output journal holds every output exactly once, so does each file, and an export run again writes
 * the same bytes.
 * <p>
 * After retention removed the oldest outputs ({@link RetainedOutputs}), date partitions are written only for the
 * days after the last day that lost a result; the earlier days' partitions are left as they are and their rows
 * counted in {@link ExportCounts#skipped()}. A results or late-events file holds what the output journal still
 * holds: check {@link RetainedOutputs#of} first if it must hold every output.
 * <p>
 * Immutable. {@link #export()} runs on the calling thread and writes what the output journal holds when it runs (run
 * it once the pipeline has stopped); two exports into the same files must not run at once. Logs the start and the end
 * (rows written) of each export at INFO.
 */
public final class ResultFiles
{
    private static final Logger LOG = LoggerFactory.getLogger(ResultFiles.class);

    private final JournalDirectory directory;
    private final RowColumns columns;
    private final Path results;
    private final Path partitions;
    private final PartitionedResults.Format format;
    private final Path late;

    private ResultFiles(final Builder builder)
    {
        this.directory = builder.directory;
        this.columns = builder.columns;
        this.results = builder.results;
        this.partitions = builder.partitions;
        this.format = builder.format;
        this.late = builder.late;
    }

    /**
     * @param pipeline a journal as one pipeline sees it ({@link JournalDirectory#pipeline(String)}): its output
     *                 journal is the one exported.
     * @return a builder of the export.
     */
    public static Builder of(final JournalDirectory pipeline)
    {
        return new Builder(Objects.requireNonNull(pipeline, "pipeline"));
    }

    /**
     * @param journal  a journal directory.
     * @param pipeline the name of the pipeline whose outputs are exported.
     * @return a builder of the export.
     * @throws dev.weir.journal.JournalRefusedException if the directory is not a journal.
     */
    public static Builder of(final Path journal, final String pipeline)
    {
        return of(JournalDirectory.open(journal).pipeline(pipeline));
    }

    /**
     * Write the files, each replaced atomically once it is complete; on a failure none is replaced.
     *
     * @return the rows written: the results file counts as one partition.
     * @throws ExportRefusedException if the columns are not in the journal.
     * @throws java.io.UncheckedIOException if a file cannot be written.
     */
    public ExportCounts export()
    {
        final String lateText = late == null ? "(none)" : late.toString();
        if (partitions != null)
        {
            LOG.info("export of {} started: results as {} partitions in {}, late events to {}", directory, format, partitions, lateText);
            final ExportCounts written = exportPartitions();
            LOG.info("export of {} done: {} results in {} partitions, {} late events", directory, written.results(), written.partitions(),
                written.late());
            return written;
        }
        LOG.info("export of {} started: results to {}, late events to {}", directory, results == null ? "(none)" : results, lateText);
        final ExportCounts written = exportFiles();
        LOG.info("export of {} done: {} results, {} late events", directory, written.results(), written.late());
        return written;
    }

    /**
     * Refuse an export into a results or late-events file once retention removed outputs from the output journal: such
     * a file holds every output, so it would silently hold fewer. Date partitions alone are not concerned (the days
     * that lost results are left as they are). Call it before the run that produces the outputs, to refuse early.
     *
     * @throws ExportRefusedException naming what retention removed and what to write instead.
     * @throws dev.weir.journal.JournalRefusedException if the output history is corrupt or of another journal.
     */
    public void requireComplete()
    {
        final RetainedOutputs retained = results == null && late == null ? null : RetainedOutputs.of(directory).orElse(null);
        if (retained != null)
        {
            throw new ExportRefusedException(retained.fileRefusal(results != null ? "--results" : "--late-output"));
        }
    }

    /**
     * A file with aggregate columns gets a value in each of them in every row, never a stand-in 0; the columns of named
     * aggregates come from results that stored exactly those aggregates and their presence mask.
     *
     * @param rows   the rows written.
     * @param stored a stored result.
     * @throws ExportRefusedException naming the aggregate values the stored results carry and those the rows need.
     */
    private void requireAggregates(final ResultRow rows, final ResultFields stored)
    {
        final int needed = rows.storedAggregates();
        final int carried = stored.aggregateCount();
        if (rows.named() ? carried == needed : needed == 0 || carried >= needed)
        {
            return;
        }
        final String asked = rows.named()
            ? "--aggregates '" + columns.named().text() + "' needs " + needed + ": one per aggregate and the presence mask"
            : "--aggregate needs " + needed;
        throw new ExportRefusedException("the output journal of pipeline '" + directory.pipelineName() + "' holds results with " + values(carried)
            + ", but " + asked + ": they were written with other aggregates. Export with the flags of the run that wrote them, "
            + "or run these flags as another pipeline (--pipeline NAME) or a weir replay");
    }

    private static String values(final int count)
    {
        return count == 0 ? "no aggregate values" : count == 1 ? "1 aggregate value" : count + " aggregate values";
    }

    private ExportCounts exportFiles()
    {
        final ExportCounts.Tally rows = new ExportCounts.Tally();
        try (KeyText keys = columns.keyText(directory);
             OutputJournal output = OutputJournal.open(directory);
             AtomicTextFile resultFile = results == null ? null : new AtomicTextFile(results);
             AtomicTextFile lateFile = late == null ? null : new AtomicTextFile(late))
        {
            final ResultRow rowFormat = columns.rows(directory, keys);
            if (resultFile != null)
            {
                resultFile.line(rowFormat.header());
            }
            if (lateFile != null)
            {
                lateFile.line(rowFormat.lateHeader());
            }
            final RowWriter writer = rowFormat.writer();
            output.readAll(stored ->
            {
                if (stored.isResult())
                {
                    requireAggregates(rowFormat, stored.result());
                    rows.count(true);
                    if (resultFile != null)
                    {
                        writer.csv(resultFile.row(), stored.result());
                    }
                }
                else
                {
                    exportLate(stored.late(), writer, lateFile);
                    rows.count(false);
                }
            });
            if (resultFile != null)
            {
                resultFile.commit();
            }
            if (lateFile != null)
            {
                lateFile.commit();
            }
        }
        return rows.counts(1, 0);
    }

    private ExportCounts exportPartitions()
    {
        final RetainedOutputs retained = RetainedOutputs.of(directory).orElse(null);
        final ExportCounts.Tally rows = new ExportCounts.Tally();
        try (KeyText keys = columns.keyText(directory);
             OutputJournal output = OutputJournal.open(directory);
             AtomicTextFile lateFile = late == null ? null : new AtomicTextFile(late))
        {
            final ResultRow rowFormat = columns.rows(directory, keys);
            try (PartitionedResults days = new PartitionedResults(partitions, format, rowFormat, null,
                retained == null ? Long.MIN_VALUE : retained.firstCompleteDay()))
            {
                if (lateFile != null)
                {
                    lateFile.line(rowFormat.lateHeader());
                }
                final RowWriter lateWriter = rowFormat.writer();
                output.readAll(stored ->
                {
                    if (stored.isResult())
                    {
                        requireAggregates(rowFormat, stored.result());
                        days.onRow(stored.result());
                        rows.count(true);
                    }
                    else
                    {
                        exportLate(stored.late(), lateWriter, lateFile);
                        rows.count(false);
                    }
                });
                assert rows.counts(0, 0).results() == days.rows() + days.skipped() : "every result is in a partition or skipped";
                final ExportCounts written = rows.counts(days.commit().size(), days.skipped());
                if (lateFile != null)
                {
                    lateFile.commit();
                }
                return written;
            }
        }
    }

    private static void exportLate(final LateEventDecoder late, final RowWriter writer, final AtomicTextFile lateFile)
    {
        if (lateFile != null)
        {
            writer.late(lateFile.row(), late);
        }
    }

    /**
     * What to export and where. Not thread-safe: one thread builds.
     */
    public static final class Builder
    {
        private final JournalDirectory directory;
        private RowColumns columns;
        private Path results;
        private Path partitions;
        private PartitionedResults.Format format;
        private Path late;

        private Builder(final JournalDirectory directory)
        {
            this.directory = directory;
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
         * @param file the results CSV to write (replaced atomically).
         * @return this builder.
         */
        public Builder results(final Path file)
        {
            this.results = Objects.requireNonNull(file, "file");
            return this;
        }

        /**
         * @param dir        the directory of the date partitions {@code DIR/date=YYYY-MM-DD/results.<format>}: every
         *                   partition the results fall on is replaced atomically, the others left as they are.
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
         * @param file the late-events CSV to write (replaced atomically).
         * @return this builder.
         */
        public Builder late(final Path file)
        {
            this.late = Objects.requireNonNull(file, "file");
            return this;
        }

        /**
         * @return the export, to run with {@link ResultFiles#export()}.
         * @throws IllegalArgumentException without columns, or with both a results file and partitions.
         */
        public ResultFiles build()
        {
            if (columns == null)
            {
                throw new IllegalArgumentException("columns(...) is required: the files' key and value columns");
            }
            if (results != null && partitions != null)
            {
                throw new IllegalArgumentException("give results(file) or partitions(dir, format), not both");
            }
            return new ResultFiles(this);
        }
    }
}
