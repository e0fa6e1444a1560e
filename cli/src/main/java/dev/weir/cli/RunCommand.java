package dev.weir.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import dev.weir.engine.time.LatePolicy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code weir run}: ingest an events CSV into a journal and run a windowed aggregation over it to the
 * end of the input, writing results (and late events) as CSV.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Ingest an events CSV into a journal and run windowed aggregation to the end of the input.")
final class RunCommand implements Callable<Integer>
{
    @Option(names = "--input", required = true, paramLabel = "FILE", description = "events CSV: event_id,event_time,key,value")
    Path input;

    @Mixin
    WindowOptions window;

    @Option(names = "--results", required = true, paramLabel = "FILE", description = "results CSV to write (replaced atomically)")
    Path results;

    @Option(names = "--late-output", paramLabel = "FILE", description = "late events CSV (with --late side)")
    Path lateOutput;

    @Option(names = "--rejected", paramLabel = "FILE", description = "rejected lines (default: <results>.rejected.csv)")
    Path rejected;

    @Option(names = "--journal", paramLabel = "DIR", description = "journal directory, new or empty (default: a temporary one)")
    Path journal;

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
        job.execute(System.out);
        return 0;
    }
}
