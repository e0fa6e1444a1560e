package dev.weir.cli;

import java.nio.file.Path;

import dev.weir.engine.time.LatePolicy;
import dev.weir.files.PartitionedResults;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRollCycle;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.postgres.PostgresSink;

/**
 * What one {@code weir run} is to do: the events CSV to ingest, the journal, the window and processing
 * options, where the results and late events go (a results CSV, date partitions, PostgreSQL) and whether
 * it follows the journal. Built by {@code run} and {@code demo} through a {@link Builder}, whose
 * {@link Builder#build()} validates the combination of flags once: a job that exists is one the flags
 * allow. {@link RunExecution} carries it out.
 * <p>
 * Immutable once built (its window and processing options are picocli's, read-only after parsing), so
 * safe to share between threads; the builder is not thread-safe.
 *
 * @param input          the events CSV to ingest, or null to process the journal as it is.
 * @param columns        the columns given ({@code --columns}), or null to take the journal's (the default for a new one).
 * @param journal        the journal directory, or null for a temporary journal deleted when the run ends.
 * @param rollCycle      the roll cycle given ({@code --roll-cycle}), or null to take the journal's (the default for a new one).
 * @param pipeline       the pipeline's name ({@code --pipeline}): whose checkpoints, output journal and metrics the run uses.
 * @param follow         true if the run keeps following the journal until stopped.
 * @param resumeAfterEnd true if the run may resume from a checkpoint taken at the end of a bounded input
 *                       ({@code --resume-after-end}), every event after which is late.
 * @param idleTimeoutMs  T of {@code --idle-timeout}, ms: a following run appends a heartbeat when the journal was quiet
 *                       this long; 0 for none.
 * @param retentionMs    DURATION of {@code --retention}, ms: how long a following run keeps a cycle after it ends; -1 for
 *                       no retention.
 * @param archive        the archive of {@code --archive}, where retention moves removed cycles, or null to delete them.
 * @param window         the window flags.
 * @param processing     the durability, input-quality and threading flags.
 * @param results        the results CSV, or null.
 * @param outputDir      the directory of the date partitions, or null.
 * @param format         the file format of the date partitions.
 * @param lateOutput     the late-events CSV, or null.
 * @param rejected       the rejected lines' CSV as given, or null ({@link #rejectedFile()} is the one written).
 * @param jdbcUrl        the PostgreSQL URL to deliver the results to, or null.
 * @param jdbcTable      the PostgreSQL results table.
 * @param jdbcLateTable  the PostgreSQL late-events table: with {@code --jdbc-url} and {@code --late side}, else null.
 * @param jdbcBatch      the outputs per PostgreSQL transaction.
 */
record RunJob(Path input, JournalSchema columns, Path journal, JournalRollCycle rollCycle, String pipeline, boolean follow,
              boolean resumeAfterEnd, long idleTimeoutMs, long retentionMs, Path archive, WindowOptions window,
              ProcessingOptions processing, Path results, Path outputDir, PartitionedResults.Format format, Path lateOutput,
              Path rejected, String jdbcUrl, String jdbcTable, String jdbcLateTable, int jdbcBatch)
{
    private RunJob(final Builder b)
    {
        this(b.input, b.columns, b.journal, b.rollCycle, b.pipeline, b.follow, b.resumeAfterEnd,
            b.idleTimeoutMs == null ? 0 : b.idleTimeoutMs, b.retentionMs == null ? -1 : b.retentionMs, b.archive, b.window, b.processing,
            b.results, b.outputDir, b.format, b.lateOutput, b.rejected, b.jdbcUrl,
            b.jdbcTable == null ? PostgresSink.DEFAULT_TABLE : b.jdbcTable,
            b.jdbcUrl == null || b.window.latePolicy != LatePolicy.SIDE ? null
                : b.jdbcLateTable == null ? PostgresSink.DEFAULT_LATE_TABLE : b.jdbcLateTable,
            b.jdbcBatch == null ? PostgresSink.DEFAULT_BATCH : b.jdbcBatch);
    }

    /**
     * @return a builder with no input, no journal, no outputs, default processing options and no window.
     */
    static Builder builder()
    {
        return new Builder();
    }

    /** @return true if the run processes into a temporary journal. */
    boolean temporaryJournal()
    {
        return journal == null;
    }

    /**
     * @return where the ingest writes rejected lines: as given, or beside the results CSV, or in the
     *         output directory, or {@code rejected.csv} in the working directory.
     */
    Path rejectedFile()
    {
        return rejected != null ? rejected
            : results != null ? results.resolveSibling(results.getFileName() + ".rejected.csv")
            : outputDir != null ? outputDir.resolve("rejected.csv") : Path.of("rejected.csv");
    }

    /**
     * Collects a job's flags; {@link #build()} validates them. A null means "not given". Not thread-safe.
     */
    static final class Builder
    {
        private Path input;
        private JournalSchema columns;
        private Path journal;
        private JournalRollCycle rollCycle;
        private String pipeline = JournalDirectory.DEFAULT_PIPELINE;
        private boolean follow;
        private boolean resumeAfterEnd;
        private Long idleTimeoutMs;
        private Long retentionMs;
        private Path archive;
        private WindowOptions window;
        private ProcessingOptions processing = new ProcessingOptions();
        private Path results;
        private Path outputDir;
        private PartitionedResults.Format format = PartitionedResults.Format.csv;
        private Path lateOutput;
        private Path rejected;
        private String jdbcUrl;
        private String jdbcTable;
        private String jdbcLateTable;
        private Integer jdbcBatch;

        private Builder()
        {
        }

        /** The events CSV, or null. */
        Builder input(final Path file)
        {
            this.input = file;
            return this;
        }

        /** The columns of the events ({@code --columns}), or null for the journal's. */
        Builder columns(final JournalSchema schema)
        {
            this.columns = schema;
            return this;
        }

        /** The journal directory, or null for a temporary one. */
        Builder journal(final Path dir)
        {
            this.journal = dir;
            return this;
        }

        /** The roll cycle of a journal it creates ({@code --roll-cycle}), or null for the journal's. */
        Builder rollCycle(final JournalRollCycle cycle)
        {
            this.rollCycle = cycle;
            return this;
        }

        /** The pipeline's name ({@code --pipeline}), or null for the default. */
        Builder pipeline(final String name)
        {
            this.pipeline = name == null ? JournalDirectory.DEFAULT_PIPELINE : name;
            return this;
        }

        /** Keep following the journal until stopped. */
        Builder follow(final boolean enabled)
        {
            this.follow = enabled;
            return this;
        }

        /** Resume from a checkpoint taken at the end of a bounded input all the same ({@code --resume-after-end}). */
        Builder resumeAfterEnd(final boolean accepted)
        {
            this.resumeAfterEnd = accepted;
            return this;
        }

        /** {@code --idle-timeout}, ms, or null. */
        Builder idleTimeout(final Long millis)
        {
            this.idleTimeoutMs = millis;
            return this;
        }

        /**
         * @param millis {@code --retention}, ms, or null.
         * @param dir    {@code --archive}, or null.
         * @return this.
         */
        Builder retention(final Long millis, final Path dir)
        {
            this.retentionMs = millis;
            this.archive = dir;
            return this;
        }

        /** The window flags. */
        Builder window(final WindowOptions options)
        {
            this.window = options;
            return this;
        }

        /** The processing flags. */
        Builder processing(final ProcessingOptions options)
        {
            this.processing = options;
            return this;
        }

        /** The results CSV, or null. */
        Builder results(final Path file)
        {
            this.results = file;
            return this;
        }

        /** The date partitions' directory, or null. */
        Builder outputDir(final Path dir)
        {
            this.outputDir = dir;
            return this;
        }

        /** The date partitions' file format. */
        Builder format(final PartitionedResults.Format partitionFormat)
        {
            this.format = partitionFormat;
            return this;
        }

        /** The late-events CSV, or null. */
        Builder lateOutput(final Path file)
        {
            this.lateOutput = file;
            return this;
        }

        /** The rejected lines' CSV, or null for the default. */
        Builder rejected(final Path file)
        {
            this.rejected = file;
            return this;
        }

        /**
         * @param url   the PostgreSQL URL, or null.
         * @param table the results table, or null for {@link PostgresSink#DEFAULT_TABLE}.
         * @param batch the outputs per transaction, or null for {@link PostgresSink#DEFAULT_BATCH}.
         * @return this.
         */
        Builder jdbc(final String url, final String table, final Integer batch)
        {
            this.jdbcUrl = url;
            this.jdbcTable = table;
            this.jdbcBatch = batch;
            return this;
        }

        /**
         * @param table the late-events table, or null for {@link PostgresSink#DEFAULT_LATE_TABLE} (with {@code --late side}).
         * @return this.
         */
        Builder jdbcLateTable(final String table)
        {
            this.jdbcLateTable = table;
            return this;
        }

        /**
         * @return the job.
         * @throws BadInputException if the flags do not go together (the first such problem, one line).
         */
        RunJob build()
        {
            if (window == null || processing == null)
            {
                throw new IllegalStateException("a run needs its window and processing options");
            }
            window.check();
            if (window.latePolicy == LatePolicy.SIDE && lateOutput == null && jdbcUrl == null) // PostgreSQL takes them too
            {
                throw new BadInputException("--late side needs --late-output FILE");
            }
            if (results != null && outputDir != null)
            {
                throw new BadInputException("give one of --results FILE and --output-dir DIR, not both");
            }
            if (results == null && outputDir == null && jdbcUrl == null)
            {
                throw new BadInputException("give --results FILE, --output-dir DIR or --jdbc-url URL");
            }
            if (jdbcUrl == null && (jdbcTable != null || jdbcBatch != null))
            {
                throw new BadInputException("--jdbc-table and --jdbc-batch need --jdbc-url");
            }
            if (jdbcLateTable != null && (jdbcUrl == null || window.latePolicy != LatePolicy.SIDE))
            {
                throw new BadInputException("--jdbc-late-table needs --jdbc-url and --late side");
            }
            if (input == null && journal == null)
            {
                throw new BadInputException("give --input FILE, --journal DIR, or both");
            }
            if (follow && journal == null)
            {
                throw new BadInputException("--follow needs --journal DIR (a temporary journal is deleted when the run ends)");
            }
            if (idleTimeoutMs != null && !follow)
            {
                throw new BadInputException("--idle-timeout needs --follow: a bounded run's end of input already closes every window");
            }
            if (idleTimeoutMs != null && idleTimeoutMs <= 0)
            {
                throw new BadInputException("--idle-timeout must be > 0: " + idleTimeoutMs + " ms");
            }
            if (archive != null && retentionMs == null)
            {
                throw new BadInputException("--archive needs --retention DURATION (to archive cycles once, use weir retain --archive)");
            }
            if (retentionMs != null && !follow)
            {
                throw new BadInputException("--retention needs --follow: a bounded run ends; apply retention with weir retain --journal DIR --keep DURATION");
            }
            if (retentionMs != null && retentionMs < 0)
            {
                throw new BadInputException("--retention cannot be negative: " + retentionMs + " ms");
            }
            if (retentionMs != null && (results != null || outputDir != null || lateOutput != null))
            {
                throw new BadInputException((results != null ? "--results" : outputDir != null ? "--output-dir" : "--late-output")
                    + " cannot go with --retention: a following run writes that export at its stop from the results and late events its output "
                    + "journal still holds, and retention removes the oldest of them; deliver the results with --jdbc-url (the database keeps "
                    + "them), or export before applying weir retain");
            }
            if (jdbcUrl != null && journal == null)
            {
                throw new BadInputException("--jdbc-url needs --journal DIR: the database's offsets refer to the journal, "
                    + "and a temporary one is deleted when the run ends");
            }
            try
            {
                JournalDirectory.checkPipelineName(pipeline);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new BadInputException("--pipeline: " + ex.getMessage());
            }
            if (processing.checkpointEvery <= 0)
            {
                throw new BadInputException("--checkpoint-every must be > 0: " + processing.checkpointEvery);
            }
            if (jdbcUrl != null && window.aggregates().size() > 1)
            {
                throw new BadInputException("--jdbc-url takes at most one --aggregate: the PostgreSQL table has one aggregate column; "
                    + "name several with --aggregates (a column each), or write --results or --output-dir");
            }
            return new RunJob(this);
        }
    }
}
