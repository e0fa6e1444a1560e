package dev.weir.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;

import dev.weir.engine.Pipeline;
import dev.weir.engine.PipelineBuilder;
import dev.weir.engine.PipelineConfiguration;
import dev.weir.engine.PipelineFailedException;
import dev.weir.engine.RunSummary;
import dev.weir.engine.Weir;
import dev.weir.engine.checkpoint.CheckpointMismatchException;
import dev.weir.engine.checkpoint.Recovery;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRefusedException;
import dev.weir.journal.JournalRollCycle;
import dev.weir.journal.JournalSchema;
import dev.weir.journal.OutputJournal;
import dev.weir.postgres.Delivery;

/**
 * Carries out one {@link RunJob}: ingest its events CSV into the journal (resumably; a temporary journal
 * unless a directory is given), process the journal with durable outputs (resuming from its newest
 * checkpoint), bounded or following it ({@link FollowingRun}), export the results and late events from the
 * output journal ({@link OutputExport}), deliver them into PostgreSQL, and print the summary
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
     * @throws BadInputException        if the input file is missing or the journal is refused (exit 2).
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
            final JournalSchema columns = IngestColumns.resolve(job.columns(), journalDir);
            final JournalSchema fileColumns = job.columns() != null ? job.columns() : columns;
            job.window().columns().projection(columns); // refuses a key or value column the events lack before anything is ingested
            if (input != null)
            {
                IngestColumns.checkHeader(input, fileColumns);
            }
            if (input == null || JournalDirectory.isJournal(journalDir))
            {
                openExisting(journalDir, job.rollCycle());
                addColumns(journalDir, columns); // so the pipeline is configured over the columns --columns adds
                concludeAndRecover(journalDir); // refuses a checkpoint of another configuration before anything is ingested
                OutputJournal.openForAppend(pipelineDirectory(journalDir)).close(); // and a pipeline another run is writing
                refuseShrinkingFiles(journalDir); // and an export file that would miss outputs retention removed
                ResumeAfterEnd.check(configuration, recovery, following != null, 0); // and a resume that would find every new event late
            }
            final CsvIngest.Summary ingested = input == null ? null : ingest(journalDir, columns, fileColumns);
            if (ingested != null && ingested.ingested() > 0 && recovery != null)
            {
                ResumeAfterEnd.check(configuration, recovery, following != null, ingested.ingested()); // the events just ingested are after it
            }
            final String rebuild = recovery == null ? null : recovery.rebuildNote(pipelineDirectory(journalDir).pipelineName());
            if (rebuild != null)
            {
                out.println(rebuild + " (outputs already written are verified, not written again).");
            }
            final RunSummary ran = process(journalDir, out, postgres);
            final ExportCounts rows = export(journalDir);
            // after the export, so a failed delivery still leaves the files written
            Delivery delivered = null;
            DeliveryPendingException pending = null;
            try
            {
                delivered = postgres == null ? null : following != null ? following.delivered() : postgres.deliver(pipelineDirectory(journalDir));
            }
            catch (final DeliveryPendingException ex)
            {
                pending = ex; // the database is down or hangs: the run completed all the same; exit code 4 after the summary
            }
            out.println(RunReport.text(job, ingested, ran, rows, postgres == null ? null : postgres.describe(delivered)));
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
     * columns in the journal's columns ({@code --columns}, else the existing journal's, else the default).
     *
     * @param journalDir the journal, which may not exist yet.
     * @return the delivery.
     * @throws BadInputException if the table does not match, or a column cannot be one of its columns.
     */
    private PostgresDelivery connectPostgres(final Path journalDir)
    {
        final JournalSchema columns = IngestColumns.resolve(job.columns(), journalDir);
        return PostgresDelivery.connect(job.jdbcUrl(), job.jdbcTable(), job.window().columns().tableShape(columns), job.jdbcBatch());
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
        catch (final JournalRefusedException | CheckpointMismatchException | IllegalArgumentException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
    }

    /**
     * A results or late-events file holds every output of the output journal: once retention removed some, it would
     * silently hold fewer, so it is refused before anything is processed.
     */
    private void refuseShrinkingFiles(final Path journalDir)
    {
        if (job.results() == null && job.lateOutput() == null)
        {
            return;
        }
        final RetainedOutputs retained = RetainedOutputs.of(pipelineDirectory(journalDir)).orElse(null);
        if (retained != null)
        {
            throw new BadInputException(retained.fileRefusal(job.results() != null ? "--results" : "--late-output"));
        }
    }

    private static void openExisting(final Path journalDir, final JournalRollCycle rollCycle)
    {
        try
        {
            JournalDirectory.open(journalDir).checkRollCycle(rollCycle);
        }
        catch (final JournalRefusedException ex)
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
            try
            {
                JournalDirectory.openOrCreate(journalDir, columns);
            }
            catch (final JournalRefusedException ex)
            {
                throw new BadInputException(ex.getMessage());
            }
        }
    }

    private CsvIngest.Summary ingest(final Path journalDir, final JournalSchema columns, final JournalSchema fileColumns)
    {
        final EventJournal events;
        try
        {
            events = EventJournal.openOrCreate(journalDir, columns, job.rollCycle());
        }
        catch (final JournalRefusedException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
        try (events)
        {
            final CsvIngest ingest = new CsvIngest(job.input(), job.rejectedFile(), fileColumns);
            try (Progress progress = Progress.start("ingest", ingest::linesRead, ingest::lastOffset))
            {
                return ingest.into(events, job.processing().sync, true); // the input is read once, as complete
            }
        }
    }

    private RunSummary process(final Path journalDir, final PrintStream out, final PostgresDelivery postgres)
    {
        concludeAndRecover(journalDir);
        final Pipeline pipeline = configuration.build(recovery);
        try (Progress progress = Progress.start("run", pipeline::processedEvents, pipeline::processedOffset))
        {
            return following == null ? pipeline.runToEnd() : following.follow(pipeline, out, postgres, configuration.directory());
        }
        catch (final PipelineFailedException ex)
        {
            if (ex.getCause() instanceof CheckpointMismatchException)
            {
                throw new BadInputException(ex.getCause().getMessage());
            }
            throw ex;
        }
        catch (final CheckpointMismatchException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
    }

    /**
     * Export the output journal: as one results CSV, or as date partitions, or nothing (PostgreSQL only).
     */
    private ExportCounts export(final Path journalDir)
    {
        if (job.outputDir() != null)
        {
            return OutputExport.exportPartitions(pipelineDirectory(journalDir), job.outputDir(), job.format(), job.lateOutput(),
                job.window().columns(), RetainedOutputs.of(pipelineDirectory(journalDir)).orElse(null));
        }
        if (job.results() == null && job.lateOutput() == null)
        {
            return ExportCounts.NONE;
        }
        // results may be null: late events only
        return OutputExport.export(pipelineDirectory(journalDir), job.results(), job.lateOutput(), job.window().columns());
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
