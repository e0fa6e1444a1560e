package dev.weir.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import dev.weir.engine.RunSummary;
import dev.weir.engine.Weir;
import dev.weir.engine.time.LatePolicy;
import dev.weir.files.DayRange;
import dev.weir.files.PartitionedResults;
import dev.weir.files.ResultReplay;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code weir replay}: reprocess a range of a journal as a batch, from a clean state, into a results CSV or date
 * partitions, each replaced atomically; the journal is only read. The flags of a {@link ResultReplay}, which holds
 * the rules: a range that leaves out events is refused into {@code --output-dir}, {@code --days} recomputes whole
 * days, a range or days that retention removed are refused naming what is left and its archive ({@code --archive}
 * reads it). This command checks the flags (exit 2), shows progress on a terminal, prints the replay's notes on
 * standard error and its summary on standard output.
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
        if (!window.joins.isEmpty())
        {
            try
            {
                window.applyTo(Weir.pipeline().journal(journal)).conclude(); // a join's table and key columns, before anything is written
            }
            catch (final IllegalArgumentException ex)
            {
                throw new BadInputException(ex.getMessage());
            }
        }
        final ResultReplay.Builder builder = ResultReplay.of(journal).columns(window.columns()).range(from, to)
            .pipeline(pipeline -> window.applyTo(pipeline).dedupe(dedupe));
        if (days != null)
        {
            builder.days(days);
        }
        if (archive != null)
        {
            builder.archive(archive);
        }
        if (lateOutput != null)
        {
            builder.late(lateOutput);
        }
        window.warn(System.err);
        final ResultReplay replay = (outputDir == null ? builder.results(results) : builder.partitions(outputDir, format)).build();
        final ResultReplay.Outcome outcome;
        try (Progress progress = Progress.start("replay", replay::processedEvents, replay::processedOffset))
        {
            outcome = replay.run(); // a refusal is a ReplayRefusedException: exit 2, nothing written
        }
        outcome.notes().forEach(note -> System.err.println("weir: note: " + note));
        final RunSummary summary = outcome.summary();
        final String written = outputDir == null ? String.format("%s (%,d rows)", results, outcome.rows())
            : days == null ? String.format("%,d rows in %d partitions of %s replaced (others untouched)",
                outcome.rows(), outcome.partitions(), outputDir)
            : String.format("%s: %,d rows in %d partitions of %s replaced, %d %s of a day without rows removed (other days untouched)",
                days, outcome.rows(), outcome.partitions(), outputDir, outcome.removed(), outcome.removed() == 1 ? "partition" : "partitions");
        System.out.print(RunReport.replayText(journal, window.describe(), summary, lateOutput, written));
        final String late = RunReport.lateWarning(summary);
        if (late != null)
        {
            System.err.println(late);
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
