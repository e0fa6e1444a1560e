package dev.weir.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;

import dev.weir.engine.metrics.MetricsFile;
import dev.weir.journal.JournalDirectory;
import org.agrona.concurrent.status.CountersReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code weir stat DIR}: the live counters of the engine running on a journal (or the last values of the
 * last run), read from its metrics file in another process, refreshed every second like Aeron's
 * {@code AeronStat}, until interrupted; {@code --once} prints them once. Reads only.
 */
@Command(name = "stat", mixinStandardHelpOptions = true,
    description = "Show the live counters of the engine running on a journal (refreshed every second).")
final class StatCommand implements Callable<Integer>
{
    @Parameters(index = "0", paramLabel = "DIR", description = "the journal directory")
    Path journal;

    @Option(names = "--once", description = "print the counters once and exit")
    boolean once;

    @Option(names = "--interval", paramLabel = "DURATION", converter = Durations.class, defaultValue = "1s",
        description = "time between refreshes (default: ${DEFAULT-VALUE})")
    long intervalMs;

    @Override
    public Integer call() throws InterruptedException
    {
        if (intervalMs <= 0)
        {
            throw new BadInputException("--interval must be greater than zero");
        }
        final JournalDirectory directory = JournalDirectory.open(journal); // refused: one line, exit 2
        final MetricsFile metrics;
        try
        {
            metrics = MetricsFile.open(directory.metricsFile());
        }
        catch (final IllegalStateException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
        try (metrics)
        {
            final boolean clear = !once && System.console() != null;
            do
            {
                if (clear)
                {
                    System.out.print("\033[H\033[2J");
                }
                print(System.out, directory, metrics);
                System.out.flush();
                if (!once)
                {
                    Thread.sleep(intervalMs);
                }
            }
            while (!once);
        }
        return 0;
    }

    private static String format(final long value)
    {
        return value == Long.MAX_VALUE ? "+infinity" : value == Long.MIN_VALUE ? "-infinity" : String.format("%,d", value);
    }

    private static void print(final PrintStream out, final JournalDirectory directory, final MetricsFile metrics)
    {
        final boolean running = ProcessHandle.of(metrics.pid()).map(ProcessHandle::isAlive).orElse(false);
        out.printf("%s  %s  pid %d (%s), started %s%n", Instant.now(), directory.root(), metrics.pid(),
            running ? "running" : "not running: last values", Instant.ofEpochMilli(metrics.startedMillis()));
        final CountersReader reader = metrics.reader();
        reader.forEach((id, label) -> out.printf("%26s  %s%n", format(reader.getCounterValue(id)), label));
        out.println();
    }
}
