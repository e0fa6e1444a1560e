package dev.weir.cli;

import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import dev.weir.engine.status.EngineStat;
import dev.weir.engine.status.EngineStatReport;
import dev.weir.journal.JournalDirectory;
import dev.weir.kafka.KafkaInstanceStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code weir stat DIR}: the live counters of the engine running on a journal (or the last values of the
 * last run), read from its metrics file in another process, refreshed every second like Aeron's
 * {@code AeronStat}, with each counter's change per second since the last refresh, until interrupted;
 * {@code --once} prints them once. What it prints is {@link EngineStat}'s reading, written by {@link EngineStatReport}, which tells counters apart by type id
 * (a file of before type ids by label). The latency histograms' counters are shown as one table, a line per
 * histogram (count, p50, p90, p99, p99.9, max in ns), under the counters. A following run with {@code --retention}
 * adds its retention's counters (steps, failures, cycles and bytes removed, bytes kept, the oldest events offset
 * held, the events floor, the journal clock of the last step). Without {@code --pipeline}, every pipeline of the journal
 * that is running is shown, one block each, or, when none is, the last values of every pipeline that has a metrics file;
 * {@code --pipeline NAME} reads that pipeline's file only. The files are opened afresh at each refresh, so a new run is picked up.
 * Reads only.
 */
@Command(name = "stat", mixinStandardHelpOptions = true,
    description = "Show the live counters of the engine running on a journal (refreshed every second).")
final class StatCommand implements Callable<Integer>
{
    @Parameters(index = "0", paramLabel = "DIR", description = "the journal directory")
    Path journal;

    @Option(names = "--pipeline", paramLabel = "NAME", description = "the one pipeline whose counters to show (default: every running pipeline, or the last values of all)")
    String pipeline;

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
        KafkaInstanceStatus kafka = KafkaInstanceStatus.read(journal).orElse(null);
        if (kafka != null)
        {
            do
            {
                if (!once && Terminal.standardOutput())
                {
                    System.out.print("\033[H\033[2J");
                }
                System.out.print(kafka.describe());
                System.out.flush();
                if (!once)
                {
                    Thread.sleep(intervalMs);
                    kafka = KafkaInstanceStatus.read(journal).orElse(kafka);
                }
            }
            while (!once);
            return 0;
        }
        final JournalDirectory base = JournalDirectory.open(journal);
        final JournalDirectory selected = pipeline == null ? null : PipelineSelection.existing(base, pipeline); // refused: one line, exit 2
        final boolean clear = !once && Terminal.standardOutput();
        final Map<String, Reading> previous = new HashMap<>();
        do
        {
            // listed and read afresh each time: a new run replaces a file (an old mapping would keep old values), or adds one
            final Map<JournalDirectory, EngineStat> stats = new LinkedHashMap<>();
            for (final JournalDirectory directory : selected != null ? List.of(selected) : withMetrics(base))
            {
                stats.put(directory, read(directory));
            }
            final boolean anyRunning = stats.values().stream().anyMatch(EngineStat::running);
            if (clear)
            {
                System.out.print("\033[H\033[2J");
            }
            for (final Map.Entry<JournalDirectory, EngineStat> entry : stats.entrySet())
            {
                final EngineStat stat = entry.getValue();
                if (anyRunning && !stat.running()) // the running pipelines, or the last values of all
                {
                    continue;
                }
                final String name = entry.getKey().pipelineName();
                final long now = System.nanoTime();
                final Reading before = previous.get(name);
                EngineStatReport.write(System.out, entry.getKey(), Instant.now(), stat, before == null ? null : before.stat(),
                    before == null ? 0 : (now - before.nanos()) / 1e9);
                previous.put(name, new Reading(stat, now));
            }
            System.out.flush();
            if (!once)
            {
                Thread.sleep(intervalMs);
            }
        }
        while (!once);
        return 0;
    }

    /**
     * @return every pipeline of the journal that has a metrics file, the default first; refused (exit 2) if none has.
     */
    private static List<JournalDirectory> withMetrics(final JournalDirectory journal)
    {
        final List<JournalDirectory> pipelines = EngineStat.pipelinesWithMetrics(journal);
        if (pipelines.isEmpty())
        {
            throw new BadInputException("no metrics file in journal " + journal.root() + " (" + journal.metricsFile()
                + ", or pipelines/NAME/metrics.dat): no pipeline with durable outputs has run on this journal");
        }
        return pipelines;
    }

    /**
     * One refresh's reading of a pipeline, for the next refresh's per-second changes.
     *
     * @param stat  the reading.
     * @param nanos when it was read ({@link System#nanoTime()}).
     */
    private record Reading(EngineStat stat, long nanos)
    {
    }

    private static EngineStat read(final JournalDirectory directory)
    {
        try
        {
            return EngineStat.read(directory);
        }
        catch (final IllegalStateException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
    }
}
