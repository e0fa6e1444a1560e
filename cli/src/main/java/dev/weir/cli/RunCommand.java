package dev.weir.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import dev.weir.files.PartitionedResults;
import dev.weir.journal.JournalRollCycle;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code weir run}: ingest an events CSV into a journal (resuming an interrupted ingest), process the
 * journal with exactly-once outputs (resuming from its newest checkpoint), and export the results and late
 * events as CSV.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Ingest an events CSV into a journal and run windowed aggregation over it, resuming after a crash.")
final class RunCommand implements Callable<Integer>
{
    @Option(names = "--input", paramLabel = "FILE", description = "events CSV: event_id,event_time, then one field per column")
    Path input;

    @Option(names = "--columns", paramLabel = "SPEC", description = "the columns of the events, e.g. card:string,amount:decimal(2),fee:long "
        + "(default: the journal's, or key:string,value:long for a new journal); new columns at the end of a journal's, each with a "
        + "default (channel:string=web), are added to it")
    String columns;

    @Mixin
    WindowOptions window;

    @Mixin
    ProcessingOptions processing;

    @Option(names = "--results", paramLabel = "FILE", description = "results CSV to write (replaced atomically); or --output-dir")
    Path results;

    @Option(names = "--output-dir", paramLabel = "DIR",
        description = "write results as date partitions DIR/date=YYYY-MM-DD/results.<format> (UTC date of window_start), each replaced atomically")
    Path outputDir;

    @Option(names = "--format", paramLabel = "csv|jsonl", defaultValue = "csv",
        description = "file format of --output-dir partitions (default: ${DEFAULT-VALUE})")
    PartitionedResults.Format format;

    @Option(names = "--jdbc-url", paramLabel = "URL",
        description = "also deliver the results into PostgreSQL (jdbc:postgresql://host:port/db?user=..&password=..): "
            + "upserts keeping the highest version, with the offsets in the same transaction (table weir_offsets); one table column per "
            + "key column, a decimal value's sum, min and max as numeric")
    String jdbcUrl;

    @Option(names = "--jdbc-table", paramLabel = "NAME", description = "results table for --jdbc-url, created if missing; one per pipeline, refused if it has another "
        + "pipeline's columns (default: weir_results)")
    String jdbcTable;

    @Option(names = "--jdbc-batch", paramLabel = "N", description = "outputs per PostgreSQL transaction (default: 2000)")
    Integer jdbcBatch;

    @Option(names = "--jdbc-late-table", paramLabel = "NAME", description = "late-events table for --jdbc-url with --late side, created if "
        + "missing; each late event once, keyed by its event offset (default: weir_late)")
    String jdbcLateTable;

    @Option(names = "--late-output", paramLabel = "FILE", description = "late events CSV (with --late side)")
    Path lateOutput;

    @Option(names = "--rejected", paramLabel = "FILE",
        description = "rejected lines (default: <results>.rejected.csv, or <output-dir>/rejected.csv)")
    Path rejected;

    @Option(names = "--journal", paramLabel = "DIR",
        description = "journal directory: created if missing or empty, resumed if it is a Weir journal (default: a temporary one)")
    Path journal;

    @Option(names = "--roll-cycle", paramLabel = "minutely|hourly|daily", converter = RollCycles.class,
        description = RollCycles.DESCRIPTION)
    JournalRollCycle rollCycle;

    @Option(names = "--pipeline", paramLabel = "NAME",
        description = "the pipeline, so that several (other windows, keys, values) process one journal: its checkpoints, output journal "
            + "and metrics are in DIR/pipelines/NAME/ ([a-z0-9][a-z0-9_-]{0,63}; default: default, at the journal's root); the events are shared")
    String pipeline;

    @Option(names = "--follow", description = "keep processing new events appended to the journal until stopped (no end-of-input flush)")
    boolean follow;

    @Option(names = ResumeAfterEnd.FLAG,
        description = "resume from a checkpoint taken at the end of a bounded input all the same: every event after it is late "
            + "(refused without it: use a new --pipeline NAME, or weir replay)")
    boolean resumeAfterEnd;

    @Option(names = "--idle-timeout", paramLabel = "T", converter = Durations.class,
        description = "with --follow: when nothing has been appended for T (e.g. 5s), append a heartbeat to the journal (again every T "
            + "while quiet) whose time is the newest event time plus the wall time since, so the last windows close; "
            + "a replay applies the same heartbeats. With --kafka: the same for each owned partition with no record for T; "
            + "each heartbeat is recorded by the checkpoint committed with the rows it caused, so a takeover gives the same rows")
    Long idleTimeout;

    @Option(names = "--retention", paramLabel = "DURATION", converter = Durations.class,
        description = "with --follow: remove (or move to --archive) the roll cycles of the events and output journals that ended "
            + "more than DURATION ago (e.g. 2h, 7d). What a checkpoint or a PostgreSQL delivery still needs is kept, as weir retain "
            + "keeps it. Checked at least every 10 s; shown by weir stat. Deliver with --jdbc-url, not with file outputs")
    Long retention;

    @Option(names = "--archive", paramLabel = "DIR", description = "with --retention: move removed cycles under DIR (events/, results/, "
        + "pipelines/NAME/results/) instead of deleting them")
    Path archive;

    @Mixin
    KafkaOptions kafka;

    @Override
    public Integer call()
    {
        if (kafka.enabled())
        {
            final KafkaExecution execution = new KafkaExecution(kafka, window, processing, ColumnsOption.parse(columns), journal, rollCycle,
                idleTimeout);
            execution.check(input != null ? "--input" : results != null ? "--results" : outputDir != null ? "--output-dir"
                : jdbcUrl != null ? "--jdbc-url" : lateOutput != null ? "--late-output" : rejected != null ? "--rejected (see --rejected-topic)"
                : follow ? "--follow (it always follows)" : retention != null ? "--retention"
                : pipeline != null ? "--pipeline" : resumeAfterEnd ? ResumeAfterEnd.FLAG : null);
            window.warn(System.err);
            execution.execute(System.out, System.err);
            return 0;
        }
        if (!kafka.tables.isEmpty())
        {
            throw new BadInputException(TableOption.NOT_LOCAL);
        }
        final RunJob job = RunJob.builder()
            .input(input)
            .columns(ColumnsOption.parse(columns))
            .journal(journal)
            .rollCycle(rollCycle)
            .pipeline(pipeline)
            .follow(follow)
            .resumeAfterEnd(resumeAfterEnd)
            .idleTimeout(idleTimeout)
            .retention(retention, archive)
            .window(window)
            .processing(processing)
            .results(results)
            .outputDir(outputDir)
            .format(format)
            .lateOutput(lateOutput)
            .rejected(rejected)
            .jdbc(jdbcUrl, jdbcTable, jdbcBatch)
            .jdbcLateTable(jdbcLateTable)
            .build();
        window.warn(System.err);
        new RunExecution(job).execute(System.out);
        return 0;
    }
}
