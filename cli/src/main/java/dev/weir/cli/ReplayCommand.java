package dev.weir.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import dev.weir.engine.RunSummary;
import dev.weir.engine.Weir;
import dev.weir.engine.emit.LateListener;
import dev.weir.engine.time.LatePolicy;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRefusedException;
import dev.weir.journal.KeyDictionary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code weir replay}: reprocess a range of a journal as a batch, from a clean state (no checkpoint, no
 * output journal), with any window configuration, and write the results CSV atomically: rerunnable, it
 * overwrites the file and never appends to it. The journal is only read.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
    description = "Reprocess a journal offset range from a clean state; overwrites the results file atomically.")
final class ReplayCommand implements Callable<Integer>
{
    @Option(names = "--journal", required = true, paramLabel = "DIR", description = "the journal to read")
    Path journal;

    @Option(names = "--from", paramLabel = "OFFSET", defaultValue = "-1", description = "first offset (default: the journal's first)")
    long from;

    @Option(names = "--to", paramLabel = "OFFSET", defaultValue = "" + Long.MAX_VALUE, description = "last offset, inclusive (default: the journal's last)")
    long to;

    @Mixin
    WindowOptions window;

    @Option(names = "--dedupe", description = "ignore an event whose event_id was already seen in the range")
    boolean dedupe;

    @Option(names = "--results", paramLabel = "FILE", description = "results CSV (replaced atomically); or --output-dir")
    Path results;

    @Option(names = "--output-dir", paramLabel = "DIR",
        description = "write results as date partitions DIR/date=YYYY-MM-DD/results.<format> (by the UTC date of window_start), "
            + "replacing exactly the partitions this replay produces rows for")
    Path outputDir;

    @Option(names = "--format", paramLabel = "csv|jsonl", defaultValue = "csv",
        description = "file format of --output-dir partitions (default: ${DEFAULT-VALUE})")
    PartitionedResults.Format format;

    @Option(names = "--late-output", paramLabel = "FILE", description = "late events CSV (with --late side)")
    Path lateOutput;

    @Override
    public Integer call()
    {
        if (window.latePolicy == LatePolicy.SIDE && lateOutput == null)
        {
            throw new BadInputException("--late side needs --late-output FILE");
        }
        if ((results == null) == (outputDir == null))
        {
            throw new BadInputException("give exactly one of --results FILE and --output-dir DIR");
        }
        if (from >= 0 && to < from)
        {
            throw new BadInputException("--to " + to + " is before --from " + from);
        }
        final JournalDirectory directory;
        try
        {
            directory = JournalDirectory.open(journal);
        }
        catch (final JournalRefusedException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
        if (outputDir != null)
        {
            return replayIntoPartitions(directory);
        }
        final RunSummary summary;
        try (KeyDictionary keys = KeyDictionary.open(directory);
             AtomicTextFile resultFile = new AtomicTextFile(results);
             AtomicTextFile lateFile = lateOutput == null ? null : new AtomicTextFile(lateOutput))
        {
            final ResultCsv resultCsv = new ResultCsv(resultFile, keys, window.withAggregate());
            final LateListener late = lateFile == null ? LateListener.NONE : new ResultCsv.Late(lateFile, keys);
            keys.handOff();
            summary = window.applyTo(Weir.pipeline().journal(journal)).dedupe(dedupe).replayRange(from, to)
                .onResult(resultCsv).onLate(late).build().runToEnd();
            keys.handOff();
            resultFile.commit();
            if (lateFile != null)
            {
                lateFile.commit();
            }
            System.out.printf("Replayed %,d events of %s, offsets %d..%d (%s): %,d windows fired, %,d late dropped, %,d late to %s. Results: %s (%,d rows).%n",
                summary.events(), journal, summary.firstOffset(), summary.lastOffset(), window.describe(), summary.windowsFired(),
                summary.dropped(), summary.sideOutput(), lateOutput, results, resultFile.lines() - 1);
        }
        return 0;
    }

    private int replayIntoPartitions(final JournalDirectory directory)
    {
        try (KeyDictionary keys = KeyDictionary.open(directory);
             PartitionedResults partitions = new PartitionedResults(outputDir, format, keys, window.withAggregate());
             AtomicTextFile lateFile = lateOutput == null ? null : new AtomicTextFile(lateOutput))
        {
            final LateListener late = lateFile == null ? LateListener.NONE : new ResultCsv.Late(lateFile, keys);
            keys.handOff();
            final RunSummary summary = window.applyTo(Weir.pipeline().journal(journal)).dedupe(dedupe).replayRange(from, to)
                .onResult(partitions).onLate(late).build().runToEnd();
            keys.handOff();
            final List<Path> written = partitions.commit();
            if (lateFile != null)
            {
                lateFile.commit();
            }
            System.out.printf("Replayed %,d events of %s, offsets %d..%d (%s): %,d windows fired, %,d late dropped, %,d late to %s. "
                    + "Results: %,d rows in %d partitions of %s replaced (others untouched).%n",
                summary.events(), journal, summary.firstOffset(), summary.lastOffset(), window.describe(), summary.windowsFired(),
                summary.dropped(), summary.sideOutput(), lateOutput, partitions.rows(), written.size(), outputDir);
        }
        return 0;
    }
}
