package dev.weir.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import dev.weir.engine.Pipeline;
import dev.weir.engine.RunSummary;
import dev.weir.engine.Weir;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.JournalRefusedException;
import dev.weir.journal.KeyDictionary;

/**
 * One {@code weir run}: ingest an events CSV into a journal (a temporary one unless a directory is
 * given), run the pipeline over it to the end, write the results (and late events) as CSV files
 * atomically, and print a one-paragraph summary. Shared by {@code run} and {@code demo}.
 * Not thread-safe: used by one command thread.
 */
final class RunJob
{
    Path input;
    Path results;
    Path lateOutput;
    Path rejected;
    Path journal;
    WindowOptions window;

    /**
     * What the job did.
     *
     * @param ingest the ingest summary.
     * @param run    the pipeline's summary.
     */
    record Outcome(CsvIngest.Summary ingest, RunSummary run)
    {
    }

    Outcome execute(final PrintStream out)
    {
        if (!Files.isRegularFile(input))
        {
            throw new BadInputException("input file not found: " + input);
        }
        final Path rejectedFile = rejected != null ? rejected : results.resolveSibling(results.getFileName() + ".rejected.csv");
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
        try
        {
            final CsvIngest.Summary ingested = ingest(journalDir, rejectedFile);
            final RunSummary ran = process(journalDir);
            printSummary(out, ingested, ran, journalDir, temporary, rejectedFile);
            return new Outcome(ingested, ran);
        }
        finally
        {
            if (temporary)
            {
                deleteRecursively(journalDir);
            }
        }
    }

    private CsvIngest.Summary ingest(final Path journalDir, final Path rejectedFile)
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
            try (JournalReader reader = JournalReader.open(events.directory()))
            {
                if (reader.lastOffset() >= 0)
                {
                    throw new BadInputException("journal " + journalDir + " already holds events; give a new or empty directory to --journal");
                }
            }
            final CsvIngest ingest = new CsvIngest(input, rejectedFile);
            try (Progress progress = Progress.start("ingest", ingest::linesRead, ingest::lastOffset))
            {
                return ingest.into(events);
            }
        }
    }

    private RunSummary process(final Path journalDir)
    {
        try (KeyDictionary keys = KeyDictionary.open(JournalDirectory.open(journalDir));
             AtomicTextFile resultFile = new AtomicTextFile(results);
             AtomicTextFile lateFile = lateOutput == null ? null : new AtomicTextFile(lateOutput))
        {
            final ResultCsv resultCsv = new ResultCsv(resultFile, keys);
            final Pipeline pipeline = window.applyTo(Weir.pipeline().journal(journalDir))
                .onResult(resultCsv)
                .onLate(lateFile == null ? dev.weir.engine.emit.LateListener.NONE : new ResultCsv.Late(lateFile, keys))
                .build();
            final RunSummary summary;
            try (Progress progress = Progress.start("run", pipeline::processedEvents, pipeline::processedOffset))
            {
                summary = pipeline.runToEnd();
            }
            resultFile.commit();
            if (lateFile != null)
            {
                lateFile.commit();
            }
            return summary;
        }
    }

    private void printSummary(
        final PrintStream out,
        final CsvIngest.Summary in,
        final RunSummary run,
        final Path journalDir,
        final boolean temporary,
        final Path rejectedFile)
    {
        out.printf("Read %,d lines from %s: %,d events ingested into %s, %,d rejected (%s). "
                + "Processed %,d events (%s) at %,.0f events/s, offsets %d..%d: %,d windows fired, "
                + "%,d late events dropped, %,d sent to the late output, %,d in no window. Results: %s%s.%n",
            in.lines(), input, in.ingested(), temporary ? "a temporary journal" : "journal " + journalDir, in.rejected(), rejectedFile,
            run.events(), window.describe(), run.eventsPerSecond(), run.firstOffset(), run.lastOffset(), run.windowsFired(),
            run.dropped(), run.sideOutput(), run.ignored(), results, lateOutput == null ? "" : ", late events: " + lateOutput);
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
