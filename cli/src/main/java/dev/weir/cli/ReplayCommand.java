package dev.weir.cli;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.Callable;

import dev.weir.engine.Pipeline;
import dev.weir.engine.RunSummary;
import dev.weir.engine.Weir;
import dev.weir.engine.emit.LateListener;
import dev.weir.engine.time.LatePolicy;
import dev.weir.files.DayRange;
import dev.weir.files.KeyText;
import dev.weir.files.PartitionedResults;
import dev.weir.files.ResultCsv;
import dev.weir.files.ResultRow;
import dev.weir.files.RetainedEvents;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.JournalRefusedException;
import dev.weir.journal.OffsetUnavailableException;
import dev.weir.journal.files.AtomicTextFile;
import dev.weir.journal.retention.ArchiveView;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code weir replay}: reprocess a range of a journal as a batch, from a clean state (no checkpoint, no
 * output journal), with any window configuration, and write the results CSV atomically: rerunnable, it
 * overwrites the file and never appends to it. The journal is only read.
 * <p>
 * Into {@code --output-dir}, a partition is only ever replaced by a complete recomputation of it: a replay
 * reads the whole journal, so a range of offsets that leaves out any event is refused (exit 2), since a
 * window of any day may hold events from outside the range and its rows would be rewritten from partial
 * input. {@code --days} recomputes chosen days: it replays the whole journal, from its first event, and
 * keeps only the rows of windows starting on those days (UTC date of {@code window_start}), which are
 * therefore the rows, order and versions a full replay writes into those partitions, whatever the
 * out-of-orderness, allowed lateness or sessions; it replaces those days' partitions, removes those of
 * them that got no row, and leaves every other partition as it was.
 * <p>
 * After retention removed the journal's oldest cycles ({@link RetainedEvents}): a replay from a removed offset, or
 * a {@code --days} rerun of a day a removed event could belong to, is refused (exit 2) naming the oldest offset and
 * day still available and the archive; a replay from the start notes on standard error what was removed and
 * replays what is left. With {@code --archive DIR} it reads the archived cycles, then the live ones, as one
 * journal at the same offsets ({@link ArchiveView}), and refuses an archive that does not match.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
    description = {"Reprocess a journal from a clean state; overwrites the results file atomically.",
        "With --output-dir the whole journal is replayed (an offset range that leaves out events is refused: it cannot "
            + "recompute a partition completely); --days replaces only the partitions of those days."})
final class ReplayCommand implements Callable<Integer>
{
    @Option(names = "--journal", required = true, paramLabel = "DIR", description = "the journal to read")
    Path journal;

    @Option(names = "--from", paramLabel = "OFFSET", defaultValue = "-1",
        description = "first offset (default: the journal's first); with --output-dir only if no event is before it")
    long from;

    @Option(names = "--to", paramLabel = "OFFSET", defaultValue = "" + Long.MAX_VALUE,
        description = "last offset, inclusive (default: the journal's last); with --output-dir only if no event is after it")
    long to;

    @Option(names = "--days", paramLabel = "DATE[..DATE]", converter = DaysConverter.class,
        description = "with --output-dir: recompute the partitions of these UTC days (YYYY-MM-DD or YYYY-MM-DD..YYYY-MM-DD) "
            + "from the whole journal, with the same flags as the replay that wrote the others: each is replaced atomically "
            + "with the rows a full replay writes into it, a day without rows loses its partition, other days are untouched")
    DayRange days;

    @Option(names = "--archive", paramLabel = "DIR",
        description = "read the cycles 'weir retain --archive DIR' moved there, then the journal's, as one journal at the same offsets")
    Path archive;

    @Mixin
    WindowOptions window;

    @Option(names = "--dedupe", description = "ignore an event whose event_id was already seen in the range")
    boolean dedupe;

    @Option(names = "--results", paramLabel = "FILE", description = "results CSV (replaced atomically); or --output-dir")
    Path results;

    @Option(names = "--output-dir", paramLabel = "DIR",
        description = "write results as date partitions DIR/date=YYYY-MM-DD/results.<format> (by the UTC date of window_start), "
            + "each replaced atomically: all the partitions this replay produces rows for, or with --days those days' (others untouched)")
    Path outputDir;

    @Option(names = "--format", paramLabel = "csv|jsonl", defaultValue = "csv",
        description = "file format of --output-dir partitions (default: ${DEFAULT-VALUE})")
    PartitionedResults.Format format;

    @Option(names = "--late-output", paramLabel = "FILE",
        description = "late events CSV (with --late side): all of the replay's, with --days too (it replays the whole journal)")
    Path lateOutput;

    /** What retention removed from the journal read, or null (nothing, or read with its archive). */
    private RetainedEvents retained;

    @Override
    public Integer call()
    {
        window.check();
        if (window.latePolicy == LatePolicy.SIDE && lateOutput == null)
        {
            throw new BadInputException("--late side needs --late-output FILE");
        }
        if (days != null && outputDir == null)
        {
            throw new BadInputException("--days needs --output-dir DIR: it replaces those days' date partitions");
        }
        if ((results == null) == (outputDir == null))
        {
            throw new BadInputException("give exactly one of --results FILE and --output-dir DIR");
        }
        if (days != null && (from >= 0 || to != Long.MAX_VALUE))
        {
            throw new BadInputException("--days replays the whole journal (a window of those days may hold events from anywhere in it): "
                + "give it without --from/--to");
        }
        if (from >= 0 && to < from)
        {
            throw new BadInputException("--to " + to + " is before --from " + from);
        }
        final JournalDirectory live;
        try
        {
            live = JournalDirectory.open(journal);
        }
        catch (final JournalRefusedException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
        if (archive == null)
        {
            checkRetained(live);
            return replay(live, journal);
        }
        try (ArchiveView view = openView(live))
        {
            return replay(view.directory(), view.directory().root());
        }
    }

    private ArchiveView openView(final JournalDirectory live)
    {
        try
        {
            return ArchiveView.open(live, archive);
        }
        catch (final JournalRefusedException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
    }

    /**
     * Refuse a replay of what retention removed from the journal, or note what a replay from its start leaves out.
     */
    private void checkRetained(final JournalDirectory directory)
    {
        retained = RetainedEvents.of(directory).orElse(null);
        if (days != null && retained != null && retained.mayHold(days))
        {
            throw new BadInputException(retained.refusalOf(days));
        }
        if (from >= 0)
        {
            try (JournalReader reader = JournalReader.open(directory))
            {
                reader.seek(from);
            }
            catch (final OffsetUnavailableException ex)
            {
                throw new BadInputException(retained == null ? ex.getMessage() : retained.refusalFrom(from));
            }
        }
        if (retained != null && from < retained.oldestOffset())
        {
            System.err.println("weir: note: " + retained.replayNote());
        }
    }

    /**
     * @param directory the journal to read (the journal, or its archive view).
     * @param path      its path, for the pipeline.
     */
    private int replay(final JournalDirectory directory, final Path path)
    {
        if (outputDir != null)
        {
            return replayIntoPartitions(directory, path);
        }
        final RunSummary summary;
        try (KeyText keys = window.columns().keyText(directory);
             AtomicTextFile resultFile = new AtomicTextFile(results);
             AtomicTextFile lateFile = lateOutput == null ? null : new AtomicTextFile(lateOutput))
        {
            final ResultRow format = window.columns().rows(directory, keys);
            final ResultCsv resultCsv = new ResultCsv(resultFile, format);
            final LateListener late = lateFile == null ? LateListener.NONE : new ResultCsv.Late(lateFile, format);
            keys.handOff();
            summary = runToEnd(window.applyTo(Weir.pipeline().journal(path)).dedupe(dedupe).replayRange(from, to)
                .onResult(resultCsv).onLate(late).build());
            keys.handOff();
            resultFile.commit();
            if (lateFile != null)
            {
                lateFile.commit();
            }
            System.out.printf("Replayed %,d events of %s, offsets %d..%d (%s): %,d windows fired, %,d late dropped, %,d late to %s%s. Results: %s (%,d rows).%n",
                summary.events(), journal, summary.firstOffset(), summary.lastOffset(), window.describe(), summary.windowsFired(),
                summary.dropped(), summary.sideOutput(), lateOutput, RunReport.wrapped(summary), results, resultFile.lines() - 1);
        }
        return 0;
    }

    /** Run the replay with a progress line on a terminal (sampled once a second by its own thread). */
    private static RunSummary runToEnd(final Pipeline pipeline)
    {
        try (Progress progress = Progress.start("replay", pipeline::processedEvents, pipeline::processedOffset))
        {
            return pipeline.runToEnd();
        }
    }

    private int replayIntoPartitions(final JournalDirectory directory, final Path path)
    {
        if (from >= 0 || to != Long.MAX_VALUE)
        {
            final EventSpan span = EventSpan.of(directory);
            if (!span.within(from, to))
            {
                final String range = ((from >= 0 ? " --from " + from : "") + (to != Long.MAX_VALUE ? " --to " + to : "")).substring(1);
                throw new BadInputException(range + " leaves out events of " + journal + " (it holds " + span + ")"
                    + ": a replay of part of a journal cannot recompute a date partition completely (its windows may hold events "
                    + "outside the range), so it replaces none; recompute whole days with --days YYYY-MM-DD[..YYYY-MM-DD], "
                    + "or write part of a journal to --results FILE");
            }
        }
        try (KeyText keys = window.columns().keyText(directory);
             PartitionedResults partitions = new PartitionedResults(outputDir, format, window.columns().rows(directory, keys), days,
                 retained == null ? Long.MIN_VALUE : retained.oldestCompleteDay());
             AtomicTextFile lateFile = lateOutput == null ? null : new AtomicTextFile(lateOutput))
        {
            final LateListener late = lateFile == null ? LateListener.NONE
                : new ResultCsv.Late(lateFile, window.columns().rows(directory, keys));
            keys.handOff();
            final RunSummary summary = runToEnd(window.applyTo(Weir.pipeline().journal(path)).dedupe(dedupe).replayRange(from, to)
                .onResult(partitions).onLate(late).build());
            keys.handOff();
            final List<Path> written = partitions.commit();
            if (retained != null && retained.oldestCompleteDay() != Long.MIN_VALUE)
            {
                System.err.printf("weir: note: partitions before %2$s are left as they are (rows not written: %1$,d): "
                    + "retention removed some of their events; later days are rewritten%n", partitions.skipped(), LocalDate.ofEpochDay(retained.oldestCompleteDay()));
            }
            if (lateFile != null)
            {
                lateFile.commit();
            }
            final String outcome = days == null
                ? String.format("Results: %,d rows in %d partitions of %s replaced (others untouched).",
                    partitions.rows(), written.size(), outputDir)
                : String.format("Results of %s: %,d rows in %d partitions of %s replaced, %d %s of a day without rows removed (other days untouched).",
                    days, partitions.rows(), written.size(), outputDir, partitions.removed(), partitions.removed() == 1 ? "partition" : "partitions");
            System.out.printf("Replayed %,d events of %s, offsets %d..%d (%s): %,d windows fired, %,d late dropped, %,d late to %s%s. %s%n",
                summary.events(), journal, summary.firstOffset(), summary.lastOffset(), window.describe(), summary.windowsFired(),
                summary.dropped(), summary.sideOutput(), lateOutput, RunReport.wrapped(summary), outcome);
        }
        return 0;
    }

    /** Picocli's converter for {@code --days}. Stateless. */
    static final class DaysConverter implements CommandLine.ITypeConverter<DayRange>
    {
        @Override
        public DayRange convert(final String value)
        {
            try
            {
                return DayRange.parse(value);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new CommandLine.TypeConversionException(ex.getMessage());
            }
        }
    }
}
