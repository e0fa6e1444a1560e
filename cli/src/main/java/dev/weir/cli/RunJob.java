package dev.weir.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

import dev.weir.engine.Pipeline;
import dev.weir.engine.RunSummary;
import dev.weir.engine.Weir;
import dev.weir.engine.checkpoint.CheckpointMismatchException;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRefusedException;
import dev.weir.journal.OutputJournal;

/**
 * One {@code weir run}: ingest an events CSV into a journal (resumably; a temporary journal unless a
 * directory is given), process the journal with durable outputs (resuming from its newest checkpoint),
 * export the results (and late events) from the output journal as CSV files, atomically, and print a
 * one-paragraph summary. Shared by {@code run} and {@code demo}. Not thread-safe: one command thread.
 */
final class RunJob
{
    Path input;
    Path results;
    Path outputDir;
    PartitionedResults.Format format = PartitionedResults.Format.csv;
    Path lateOutput;
    String jdbcUrl;
    String jdbcTable = dev.weir.postgres.PostgresSink.DEFAULT_TABLE;
    int jdbcBatch = dev.weir.postgres.PostgresSink.DEFAULT_BATCH;
    Path rejected;
    Path journal;
    boolean follow;
    WindowOptions window;
    ProcessingOptions processing = new ProcessingOptions();

    /**
     * What the job did.
     *
     * @param ingest the ingest summary, or null without an input.
     * @param run    the pipeline's summary.
     * @param rows   rows exported: {results, late, partitions}.
     * @param delivery what the PostgreSQL sink delivered, or null without one.
     */
    record Outcome(CsvIngest.Summary ingest, RunSummary run, long[] rows, dev.weir.postgres.Delivery delivery)
    {
    }

    /** How often a following run delivers new results into PostgreSQL. */
    static final long DELIVERY_INTERVAL_MS = 1_000;

    private final CountDownLatch finished = new CountDownLatch(1);
    /** A following run stops: on a signal, or at once when the pipeline fails. */
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private ContinuousDelivery following;

    Outcome execute(final PrintStream out)
    {
        try
        {
            return executeOnce(out);
        }
        finally
        {
            finished.countDown();
        }
    }

    private Outcome executeOnce(final PrintStream out)
    {
        if (input == null && journal == null)
        {
            throw new BadInputException("give --input FILE, --journal DIR, or both");
        }
        if (follow && journal == null)
        {
            throw new BadInputException("--follow needs --journal DIR (a temporary journal is deleted when the run ends)");
        }
        if (jdbcUrl != null && journal == null)
        {
            throw new BadInputException("--jdbc-url needs --journal DIR: the database's offsets refer to the journal, "
                + "and a temporary one is deleted when the run ends");
        }
        if (processing.checkpointEvery <= 0)
        {
            throw new BadInputException("--checkpoint-every must be > 0: " + processing.checkpointEvery);
        }
        if (input != null && !Files.isRegularFile(input))
        {
            throw new BadInputException("input file not found: " + input);
        }
        final boolean temporary = journal == null;
        final Path journalDir;
        try
        {
            journalDir = temporary ? Files.createTempDirectory("weir-run-") : journal;
        }
        catch (final IOException ex)
        {
            throw new java.io.UncheckedIOException("cannot create a temporary journal", ex);
        }
        try (PostgresDelivery postgres = jdbcUrl == null ? null : PostgresDelivery.connect(jdbcUrl, jdbcTable, jdbcBatch))
        {
            if (input == null || JournalDirectory.isJournal(journalDir))
            {
                openExisting(journalDir);
                buildPipeline(journalDir); // refuses a checkpoint of another configuration before anything is ingested
                OutputJournal.openForAppend(JournalDirectory.open(journalDir)).close(); // and a journal another run is writing
            }
            if (input != null)
            {
                CsvIngest.checkHeader(input);
            }
            final CsvIngest.Summary ingested = input == null ? null : ingest(journalDir);
            final RunSummary ran = process(journalDir, out, postgres);
            final long[] rows = export(journalDir);
            // after the export, so a failed delivery still leaves the files written
            dev.weir.postgres.Delivery delivered = null;
            DeliveryPendingException pending = null;
            try
            {
                delivered = postgres == null ? null : following != null ? following.result() : postgres.deliver(JournalDirectory.open(journalDir));
            }
            catch (final DeliveryPendingException ex)
            {
                pending = ex; // the database is down or hangs: the run completed all the same; exit code 4 after the summary
            }
            printSummary(out, ingested, ran, rows, journalDir, temporary, postgres == null ? null : postgres.describe(delivered));
            if (pending != null)
            {
                throw pending;
            }
            return new Outcome(ingested, ran, rows, delivered);
        }
        finally
        {
            if (temporary)
            {
                deleteRecursively(journalDir);
            }
        }
    }

    private static void openExisting(final Path journalDir)
    {
        try
        {
            JournalDirectory.open(journalDir);
        }
        catch (final JournalRefusedException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
    }

    private CsvIngest.Summary ingest(final Path journalDir)
    {
        final EventJournal events;
        try
        {
            events = EventJournal.openOrCreate(journalDir);
        }
        catch (final JournalRefusedException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
        try (events)
        {
            final Path rejectedFile = rejected != null ? rejected
                : results != null ? results.resolveSibling(results.getFileName() + ".rejected.csv")
                : outputDir != null ? outputDir.resolve("rejected.csv") : Path.of("rejected.csv");
            final CsvIngest ingest = new CsvIngest(input, rejectedFile);
            try (Progress progress = Progress.start("ingest", ingest::linesRead, ingest::lastOffset))
            {
                return ingest.into(events, processing.sync, true); // the input is read once, as complete
            }
        }
    }

    private Pipeline buildPipeline(final Path journalDir)
    {
        try
        {
            return processing.applyTo(window.applyTo(Weir.pipeline().journal(journalDir)))
                .onFailure(cause -> stopRequested.countDown()) // a failed following run ends now, with its cause
                .build();
        }
        catch (final JournalRefusedException | CheckpointMismatchException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
    }

    private RunSummary process(final Path journalDir, final PrintStream out, final PostgresDelivery postgres)
    {
        final Pipeline pipeline = buildPipeline(journalDir);
        try (Progress progress = Progress.start("run", pipeline::processedEvents, pipeline::processedOffset))
        {
            if (!follow)
            {
                return pipeline.runToEnd();
            }
            return followUntilSignalled(pipeline, out, postgres, journalDir);
        }
        catch (final dev.weir.engine.PipelineFailedException ex)
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

    private RunSummary followUntilSignalled(final Pipeline pipeline, final PrintStream out, final PostgresDelivery postgres, final Path journalDir)
    {
        final Thread hook = new Thread(() ->
        {
            stopRequested.countDown();
            try
            {
                finished.await(); // let the run stop, checkpoint, export and print before the JVM halts
            }
            catch (final InterruptedException ignored)
            {
                Thread.currentThread().interrupt();
            }
            ExitStatus.haltIfFailed(); // a stop that failed exits with its code, not the signal's
        }, "weir-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try
        {
            return follow(pipeline, out, postgres, journalDir);
        }
        finally
        {
            try
            {
                Runtime.getRuntime().removeShutdownHook(hook); // stopped by a failure, not a signal
            }
            catch (final IllegalStateException shutdownInProgress)
            {
                // stopped by a signal: the hook is running
            }
        }
    }

    private RunSummary follow(final Pipeline pipeline, final PrintStream out, final PostgresDelivery postgres, final Path journalDir)
    {
        pipeline.start();
        // with --jdbc-url, results reach PostgreSQL while following: what is new, every second, on its own thread
        following = postgres == null ? null
            : new ContinuousDelivery(postgres, JournalDirectory.open(journalDir), DELIVERY_INTERVAL_MS, System.err).start();
        out.println("Following the journal; stop with Ctrl-C (SIGINT) or SIGTERM: a checkpoint is taken and the results exported.");
        out.flush();
        try
        {
            stopRequested.await();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        try
        {
            return pipeline.stop();
        }
        finally
        {
            if (following != null)
            {
                following.finish(); // its thread ends before the sink is closed, even if the pipeline failed
            }
        }
    }

    private void printSummary(
        final PrintStream out,
        final CsvIngest.Summary in,
        final RunSummary run,
        final long[] rows,
        final Path journalDir,
        final boolean temporary,
        final String delivery)
    {
        final StringBuilder text = new StringBuilder();
        if (in != null)
        {
            text.append(String.format("Read %,d lines from %s: %,d events ingested into %s, %,d rejected",
                in.lines(), input, in.ingested(), temporary ? "a temporary journal" : "journal " + journalDir, in.rejected()));
            if (in.skipped() > 0)
            {
                text.append(String.format(" (%,d lines were already ingested and were skipped)", in.skipped()));
            }
            text.append(". ");
        }
        if (run.resumedAfterOffset() >= 0)
        {
            text.append(String.format("Resumed from the checkpoint at offset %d (%,d outputs reproduced and verified, not written again). ",
                run.resumedAfterOffset(), run.suppressedOutputs()));
        }
        text.append(String.format("Processed %,d events (%s%s) at %,.0f events/s, offsets %d..%d: %,d windows fired, "
                + "%,d late events dropped, %,d sent to the late output, %,d in no window",
            run.eventsThisRun(), window.describe(), processing.dedupe ? ", dedupe" : "", run.eventsPerSecond(), run.firstOffset(), run.lastOffset(),
            run.windowsFired(), run.dropped(), run.sideOutput(), run.ignored()));
        if (processing.dedupe)
        {
            text.append(String.format(", %,d duplicates ignored", run.duplicates()));
        }
        text.append(String.format("; %d checkpoints (longest pause %.1f ms).", run.checkpoints(), run.maxCheckpointNanos() / 1e6));
        if (results != null || outputDir != null)
        {
            text.append(String.format(" Results: %s (%,d rows%s)", results != null ? results : outputDir, rows[0],
                results != null ? "" : String.format(" in %,d date partitions", rows[2])));
        }
        if (lateOutput != null)
        {
            text.append(String.format("%s late events: %s (%,d rows)", results != null || outputDir != null ? "," : " Late", lateOutput, rows[1]));
        }
        if (text.charAt(text.length() - 1) != '.')
        {
            text.append('.');
        }
        if (delivery != null)
        {
            text.append(' ').append(delivery).append('.');
        }
        out.println(text);
    }

    /**
     * Export the output journal: as one results CSV, or as date partitions.
     *
     * @param journalDir the journal.
     * @return rows written: {results, late, partitions}.
     */
    private long[] export(final Path journalDir)
    {
        if (outputDir != null)
        {
            return OutputExport.exportPartitions(JournalDirectory.open(journalDir), outputDir, format, lateOutput, window.withAggregate());
        }
        if (results == null && lateOutput == null)
        {
            return new long[] {0, 0, 0}; // PostgreSQL only
        }
        final long[] rows = OutputExport.export(JournalDirectory.open(journalDir), results, lateOutput, window.withAggregate()); // results may be null: late events only
        return new long[] {rows[0], rows[1], 1};
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
