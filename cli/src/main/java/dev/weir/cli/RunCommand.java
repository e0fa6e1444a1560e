package dev.weir.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import dev.weir.engine.time.LatePolicy;
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
    @Option(names = "--input", paramLabel = "FILE", description = "events CSV: event_id,event_time,key,value")
    Path input;

    @Mixin
    WindowOptions window;

    @Mixin
    ProcessingOptions processing;

    @Option(names = "--results", required = true, paramLabel = "FILE", description = "results CSV to write (replaced atomically)")
    Path results;

    @Option(names = "--late-output", paramLabel = "FILE", description = "late events CSV (with --late side)")
    Path lateOutput;

    @Option(names = "--rejected", paramLabel = "FILE", description = "rejected lines (default: <results>.rejected.csv)")
    Path rejected;

    @Option(names = "--journal", paramLabel = "DIR",
        description = "journal directory: created if missing or empty, resumed if it is a Weir journal (default: a temporary one)")
    Path journal;

    @Option(names = "--follow", description = "keep processing new events appended to the journal until stopped (no end-of-input flush)")
    boolean follow;

    @Override
    public Integer call()
    {
        if (window.latePolicy == LatePolicy.SIDE && lateOutput == null)
        {
            throw new BadInputException("--late side needs --late-output FILE");
        }
        final RunJob job = new RunJob();
        job.input = input;
        job.results = results;
        job.lateOutput = lateOutput;
        job.rejected = rejected;
        job.journal = journal;
        job.window = window;
        job.processing = processing;
        job.follow = follow;
        job.execute(System.out);
        return 0;
    }
}
