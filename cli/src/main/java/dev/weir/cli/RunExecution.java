package dev.weir.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import dev.weir.csv.CsvIngest;
import dev.weir.csv.IngestColumns;
import dev.weir.engine.Pipeline;
import dev.weir.engine.PipelineBuilder;
import dev.weir.engine.PipelineConfiguration;
import dev.weir.engine.PipelineFailedException;
import dev.weir.engine.Recovery;
import dev.weir.engine.RunSummary;
import dev.weir.engine.Weir;
import dev.weir.engine.expr.ColumnProjection;
import dev.weir.engine.join.JoinedColumns;
import dev.weir.engine.resume.CheckpointMismatchException;
import dev.weir.files.ExportCounts;
import dev.weir.files.ResultFiles;
import dev.weir.files.RetainedOutputs;
import dev.weir.files.RowColumns;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;
import dev.weir.postgres.Delivery;
import dev.weir.postgres.ResultsTableShape;
import dev.weir.postgres.SinkRefusedException;

/**
 * Carries out one {@link RunJob}: ingest its events CSV into the journal (resumably; a temporary journal
 * unless a directory is given), process the journal with durable outputs (resuming from its newest
 * checkpoint), bounded or following it ({@link FollowingRun}), export the results and late events from the
 * output journal ({@link ResultFiles}), deliver them into PostgreSQL, and print the summary
 * ({@link RunReport}). A journal of another run's configuration, or one another run is writing, is refused
 * before anything is ingested.
 * <p>
 * Used once, on the command thread; not thread-safe.
 */
final class RunExecution
{
    /**
     * What the run did.
     *
     * @param ingest   the ingest's summary, or null without an input.
     * @param run      the pipeline's summary.
     * @param rows     what the export wrote.
     * @param delivery what the PostgreSQL sink delivered, or null without one.
     */
    record Outcome(CsvIngest.Summary ingest, RunSummary run, ExportCounts rows, Delivery delivery)
    {
    }

    private final RunJob job;
    /** The stop and delivery of a following run, or null for a bounded one. */
    private final FollowingRun following;
    private PipelineConfiguration configuration;
    private Recovery recovery;
    /** The database a following run delivers into continuously, or null. */
    private PostgresDelivery continuousTarget;

    /**
     * @param job the run to carry out.
     */
    RunExecution(final RunJob job)
    {
        this.job = job;
        this.following = job.follow() ? new FollowingRun() : null;
    }

    /**
     * Carry out the job and print its summary.
     *
     * @param out where the summary goes.
     * @return what the run did.
     * @throws BadInputException        if the input file is missing or the configuration is refused (exit 2); a refused
     *                                  journal, checkpoint, resume or export is the library's own exception (exit 2 too).
     * @throws DeliveryPendingException if the results could not all be delivered into PostgreSQL, after the
     *                                  files are written and the summary printed (exit 4).
     */
    Outcome execute(final PrintStream out)
    {
        try
        {
            return executeOnce(out);
        }
        finally
        {
            if (following != null)
            {
                following.finished();
            }
        }
    }

    private Outcome executeOnce(final PrintStream out)
    {
        final Path input = job.input();
        if (input != null && !Files.isRegularFile(input))
        {
            throw new BadInputException("input file not found: " + input);
        }
        final Path journalDir;
        try
        {
            journalDir = job.temporaryJournal() ? Files.createTempDirectory("weir-run-") : job.journal();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create a temporary journal", ex);
        }
        try (PostgresDelivery postgres = job.jdbcUrl() == null ? null : connectPostgres(journalDir))
        {
            continuousTarget = following != null ? postgres : null;
            final JournalSchema columns = IngestColumns.resolve(job.columns(), journalDir);
            final JournalSchema fileColumns = job.columns() != null ? job.columns() : columns;
            if (input != null)
            {
                IngestColumns.checkHeader(input, fileColumns); // first: a header of other columns says which --columns to pass
            }
            // refuses a key or value column the events lack before anything is ingested
            job.window().columns().projection(columns, JournalDirectory.isJournal(journalDir) ? JournalDirectory.open(journalDir).tables() : List.of());
            if (input == null || JournalDirectory.isJournal(journalDir))
            {
                JournalDirectory.open(journalDir).checkRollCycle(job.rollCycle());
                addColumns(journalDir, columns); // so the pipeline is configured over the columns --columns adds
                concludeAndRecover(journalDir); // refuses a checkpoint of another configuration before anything is ingested
                OutputJournal.openForAppend(pipelineDirectory(journalDir)).close(); // and a pipeline another run is writing
                final ResultFiles files = files(journalDir);
                if (files != null)
                {
                    files.requireComplete(); // and an export file that would miss outputs retention removed
                }
                configuration.checkResume(recovery, following != null); // and a resume that would find every new event late
            }
            final CsvIngest.Summary ingested = input == null ? null : ingest(journalDir, columns, fileColumns);
            if (ingested != null && ingested.ingested() > 0 && recovery != null)
            {
                configuration.checkResume(recovery, following != null, ingested.ingested()); // the events just ingested are after it
            }
            final String rebuild = recovery == null ? null : recovery.rebuildNote(pipelineDirectory(journalDir).pipelineName());
            if (rebuild != null)
            {
                out.println(rebuild + " (outputs already written are verified, not written again).");
            }
            final RunSummary ran = process(journalDir, out);
            final ExportCounts rows = export(journalDir);
            // after the export, so a failed delivery still leaves the files written
            Delivery delivered = null;
            DeliveryPendingException pending = null;
            try
            {
                delivered = postgres == null ? null : following != null ? postgres.result() : postgres.deliver(pipelineDirectory(journalDir));
            }
            catch (final DeliveryPendingException ex)
            {
                pending = ex; // the database is down or hangs: the run completed all the same; exit code 4 after the summary
            }
            out.print(RunReport.text(job, ingested, ran, rows, postgres == null ? null : postgres.describe(delivered)));
            out.flush();
            final String late = RunReport.lateWarning(ran);
            if (late != null)
            {
                System.err.println(late);
            }
            if (pending != null)
            {
                throw pending;
            }
            return new Outcome(ingested, ran, rows, delivered);
        }
        finally
        {
            if (job.temporaryJournal())
            {
                deleteRecursively(journalDir);
            }
        }
    }

    /**
     * Connect to the database, and create or check the results table for the pipeline's key and value
     * columns (or named aggregates) in the journal's columns ({@code --columns}, else the existing journal's, else the
     * default) and tables.
     *
     * @param journalDir the journal, which may not exist yet.
     * @return the delivery.
     * @throws BadInputException if the table does not match, or a column cannot be one of its columns.
     */
    private PostgresDelivery connectPostgres(final Path journalDir)
    {
        final JournalSchema columns = IngestColumns.resolve(job.columns(), journalDir);
        final List<TableDefinition> tables = JournalDirectory.isJournal(journalDir) ? JournalDirectory.open(journalDir).tables() : List.of();
        return PostgresDelivery.connect(job.jdbcUrl(), job.jdbcTable(), job.jdbcLateTable(), tableShape(job.window().columns(), columns, tables),
            job.jdbcBatch());
    }

    /**
     * @param rows   the pipeline's key and value columns, aggregations and kinds of rows.
     * @param schema a journal's columns.
     * @param tables its tables (the joined ones' columns may be named by the value and the aggregates).
     * @return the PostgreSQL results table of the pipeline's rows: its key columns, and its value and
     *         aggregate (a mean is at the value's scale) as bigint or exact numeric columns, or a column per named
     *         aggregate; with an early condition an {@code early} boolean column (update rows are not delivered).
     * @throws BadInputException if a column is missing or of the wrong type, or a key column cannot be a
     *                           column of the table.
     */
    private static ResultsTableShape tableShape(final RowColumns rows, final JournalSchema schema, final List<TableDefinition> tables)
    {
        final ColumnProjection projection = rows.projection(schema, tables);
        try
        {
            final ResultsTableShape shape = rows.named() != null
                ? ResultsTableShape.of(schema, projection.keyColumns(), rows.named().bind(JoinedColumns.of(schema, tables, rows.joins())))
                : ResultsTableShape.of(schema, projection.keyColumns(), projection.valueColumn(), projection.valueScale(),
                    rows.aggregates().size() == 1 && rows.aggregates().get(0).isAValue() ? projection.valueScale() : 0);
            return rows.earlyWhen() != null ? shape.withEarly() : shape;
        }
        catch (final SinkRefusedException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
    }

    /**
     * The engine pipeline this run processes the journal with: the one place that configures it.
     *
     * @param journalDir the journal.
     * @return the configured builder.
     */
    private PipelineBuilder pipelineFor(final Path journalDir)
    {
        final PipelineBuilder builder = job.processing().applyTo(job.window().applyTo(Weir.pipeline().journal(journalDir).pipeline(job.pipeline())))
            .onFailure(cause -> onPipelineFailure()) // a failed following run ends now, with its cause
            .resumeAfterEnd(job.resumeAfterEnd());
        if (continuousTarget != null)
        {
            // with --jdbc-url, results reach PostgreSQL while following: what is new, every second, on the pipeline's delivery thread
            builder.deliverContinuously(continuousTarget.sink(), Duration.ofMillis(FollowingRun.DELIVERY_INTERVAL_MS), continuousTarget);
        }
        if (job.idleTimeoutMs() > 0)
        {
            builder.idleTimeout(Duration.ofMillis(job.idleTimeoutMs())).onHeartbeatsStopped(FollowingRun::heartbeatsStopped);
        }
        return job.retentionMs() < 0 ? builder : builder.retention(Duration.ofMillis(job.retentionMs()), job.archive());
    }

    /**
     * @param journalDir the journal.
     * @return the journal as this run's pipeline sees it: its output journal is the one exported and delivered.
     */
    private JournalDirectory pipelineDirectory(final Path journalDir)
    {
        return JournalDirectory.open(journalDir).pipeline(job.pipeline());
    }

    private void onPipelineFailure()
    {
        if (following != null)
        {
            following.requestStop();
        }
    }

    /**
     * Conclude the pipeline's configuration and recover the journal's newest checkpoint, once per run: for
     * an existing journal before anything is ingested (so a journal processed under another configuration
     * is refused first), else once the ingest has created it. The events ingested in between come after
     * everything the checkpoint covers, so the run resumes from it all the same.
     */
    private void concludeAndRecover(final Path journalDir)
    {
        if (recovery != null)
        {
            return;
        }
        try
        {
            configuration = pipelineFor(journalDir).conclude();
            recovery = configuration.recover();
        }
        catch (final IllegalArgumentException ex) // a refused journal or checkpoint is an exception of its own: exit 2 too
        {
            throw new BadInputException(ex.getMessage());
        }
    }

    /**
     * Add the columns {@code --columns} adds to an existing journal ({@link IngestColumns#resolve}), if any.
     */
    private static void addColumns(final Path journalDir, final JournalSchema columns)
    {
        if (JournalDirectory.isJournal(journalDir) && !JournalDirectory.open(journalDir).schema().equals(columns))
        {
            JournalDirectory.openOrCreate(journalDir, columns);
        }
    }

    private CsvIngest.Summary ingest(final Path journalDir, final JournalSchema columns, final JournalSchema fileColumns)
    {
        try (EventJournal events = EventJournal.openOrCreate(journalDir, columns, job.rollCycle()))
        {
            final CsvIngest ingest = CsvIngest.into(events).columns(fileColumns).rejected(job.rejectedFile()).sync(job.processing().sync)
                .complete(true).build(); // the input is read once, as complete
            try (Progress progress = Progress.start("ingest", ingest::linesRead, ingest::lastOffset))
            {
                return ingest.ingest(job.input());
            }
        }
    }

    private RunSummary process(final Path journalDir, final PrintStream out)
    {
        concludeAndRecover(journalDir);
        final Pipeline pipeline = configuration.build(recovery);
        try (Progress progress = Progress.start("run", pipeline::processedEvents, pipeline::processedOffset))
        {
            return following == null ? pipeline.runToEnd() : following.follow(pipeline, out, configuration.directory());
        }
        catch (final PipelineFailedException ex)
        {
            if (ex.getCause() instanceof CheckpointMismatchException)
            {
                throw new BadInputException(ex.getCause().getMessage());
            }
            throw ex;
        }
    }

    /**
     * @return the export of the output journal into the run's files (one results CSV, or date partitions, and the late
     *         events), or null without file outputs (PostgreSQL only).
     */
    private ResultFiles files(final Path journalDir)
    {
        if (job.outputDir() == null && job.results() == null && job.lateOutput() == null)
        {
            return null;
        }
        final ResultFiles.Builder files = ResultFiles.of(pipelineDirectory(journalDir)).columns(job.window().columns());
        if (job.lateOutput() != null)
        {
            files.late(job.lateOutput());
        }
        if (job.outputDir() != null)
        {
            files.partitions(job.outputDir(), job.format());
        }
        return job.results() == null ? files.build() : files.results(job.results()).build(); // results null: late events only
    }

    /**
     * Export the output journal into the run's files. Partitions of days that lost results to retention are left as they
     * are: a note on standard error says so.
     */
    private ExportCounts export(final Path journalDir)
    {
        final ResultFiles files = files(journalDir);
        if (files == null)
        {
            return ExportCounts.NONE;
        }
        final ExportCounts written = files.export();
        final RetainedOutputs retained = job.outputDir() == null ? null : RetainedOutputs.of(pipelineDirectory(journalDir)).orElse(null);
        if (retained != null && retained.firstCompleteDay() != Long.MIN_VALUE)
        {
            System.err.println("weir: note: " + retained.partitionNote(written.skipped()));
        }
        return written;
    }

    private static void deleteRecursively(final Path root)
    {
        try (Stream<Path> paths = Files.walk(root))
        {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        catch (final IOException ignored)
        {
            // a temporary directory left behind is harmless
        }
    }
}
