package dev.weir.cli;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;

import dev.weir.engine.metrics.CounterTypes;
import dev.weir.engine.metrics.EngineCounters;
import dev.weir.engine.metrics.MetricsFile;
import dev.weir.journal.JournalDirectory;
import org.agrona.concurrent.status.CountersReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code weir stat DIR}: the live counters of the engine running on a journal (or the last values of the
 * last run), read from its metrics file in another process, refreshed every second like Aeron's
 * {@code AeronStat}, with each counter's change per second since the last refresh, until interrupted;
 * {@code --once} prints them once. Counters are told apart by type id ({@code CounterTypes}); a file of
 * before type ids is read by label. The latency histograms' counters are shown as one table, a line per
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
        final Path kafkaStatus = KafkaInstanceStatus.of(journal);
        if (kafkaStatus != null)
        {
            do
            {
                if (!once && System.console() != null)
                {
                    System.out.print("\033[H\033[2J");
                }
                KafkaInstanceStatus.print(kafkaStatus, System.out);
                if (!once)
                {
                    Thread.sleep(intervalMs);
                }
            }
            while (!once);
            return 0;
        }
        final JournalDirectory base = JournalDirectory.open(journal);
        final JournalDirectory selected = pipeline == null ? null : PipelineSelection.existing(base, pipeline); // refused: one line, exit 2
        final boolean clear = !once && System.console() != null;
        final Map<String, Reading> previous = new HashMap<>();
        do
        {
            // listed and opened afresh each time: a new run replaces a file (an old mapping would keep old values), or adds one
            final Map<JournalDirectory, MetricsFile> files = new LinkedHashMap<>();
            try
            {
                for (final JournalDirectory directory : selected != null ? List.of(selected) : withMetrics(base))
                {
                    files.put(directory, open(directory));
                }
                final boolean anyRunning = files.values().stream().anyMatch(MetricsFile::running);
                if (clear)
                {
                    System.out.print("\033[H\033[2J");
                }
                for (final Map.Entry<JournalDirectory, MetricsFile> file : files.entrySet())
                {
                    final MetricsFile metrics = file.getValue();
                    if (anyRunning && !metrics.running()) // the running pipelines, or the last values of all
                    {
                        continue;
                    }
                    final String name = file.getKey().pipelineName();
                    final long now = System.nanoTime();
                    final Reading before = previous.get(name);
                    final boolean sameRun = before != null && metrics.startedMillis() == before.startedMillis();
                    print(System.out, file.getKey(), metrics, sameRun ? before.values() : Map.of(), sameRun ? (now - before.nanos()) / 1e9 : 0);
                    previous.put(name, Reading.of(metrics, now));
                }
                System.out.flush();
            }
            finally
            {
                files.values().forEach(MetricsFile::close);
            }
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
        final List<JournalDirectory> pipelines = new ArrayList<>();
        final Set<String> names = new LinkedHashSet<>(List.of(JournalDirectory.DEFAULT_PIPELINE));
        names.addAll(journal.pipelines());
        for (final String name : names)
        {
            final JournalDirectory pipeline = journal.pipeline(name);
            if (Files.isRegularFile(pipeline.metricsFile()))
            {
                pipelines.add(pipeline);
            }
        }
        if (pipelines.isEmpty())
        {
            throw new BadInputException("no metrics file in journal " + journal.root() + " (" + journal.metricsFile()
                + ", or pipelines/NAME/metrics.dat): no pipeline with durable outputs has run on this journal");
        }
        return pipelines;
    }

    /**
     * One refresh's values of a pipeline's counters, by label, for the next refresh's per-second changes.
     *
     * @param values        each counter's value, by label.
     * @param startedMillis when the run that wrote them started: another run's values are not compared.
     * @param nanos         when they were read ({@link System#nanoTime()}).
     */
    private record Reading(Map<String, Long> values, long startedMillis, long nanos)
    {
        static Reading of(final MetricsFile metrics, final long nanos)
        {
            final Map<String, Long> values = new HashMap<>();
            metrics.reader().forEach((id, label) -> values.put(label, metrics.reader().getCounterValue(id)));
            return new Reading(values, metrics.startedMillis(), nanos);
        }
    }

    private static MetricsFile open(final JournalDirectory directory)
    {
        try
        {
            return MetricsFile.open(directory.metricsFile());
        }
        catch (final IllegalStateException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
    }

    private static String format(final long value)
    {
        return value == Long.MAX_VALUE ? "+infinity" : value == Long.MIN_VALUE ? "-infinity" : String.format("%,d", value);
    }

    /** @return the time since a wall clock, e.g. {@code 2.4 s ago}, or {@code never} for 0. */
    private static String since(final long wallClockMs)
    {
        return wallClockMs <= 0 ? "never" : String.format("%.1f s ago", Math.max(0, System.currentTimeMillis() - wallClockMs) / 1e3);
    }

    private static void print(
        final PrintStream out, final JournalDirectory directory, final MetricsFile metrics, final Map<String, Long> previous,
        final double seconds)
    {
        final boolean running = metrics.running();
        out.printf("%s  %s  pid %d (%s), started %s%n", Instant.now(), directory, metrics.pid(),
            running ? "running" : "not running: last values", Instant.ofEpochMilli(metrics.startedMillis()));
        out.printf("%26s  %14s  %s%n", "value", previous.isEmpty() ? "" : "per second", "counter");
        final CountersReader reader = metrics.reader();
        final Map<Integer, long[]> histograms = new TreeMap<>();
        reader.forEach((id, typeId, key, label) ->
        {
            final long value = reader.getCounterValue(id);
            final int histogram = CounterTypes.histogramOf(typeId);
            if (histogram > 0)
            {
                histograms.computeIfAbsent(histogram, h -> new long[CounterTypes.MAX])[typeId - histogram - 1] = value;
                return;
            }
            if (isClock(typeId, label, CounterTypes.LAST_EVENT_READ, EngineCounters.LAST_EVENT_READ))
            {
                out.printf("%26s  %14s  %s%n", since(value), "", "time since the last event read");
                return;
            }
            if (isClock(typeId, label, CounterTypes.LAST_HEARTBEAT_READ, EngineCounters.LAST_HEARTBEAT_READ))
            {
                out.printf("%26s  %14s  %s%n", since(value), "", "time since the last heartbeat read");
                return;
            }
            if (typeId == CounterTypes.RETENTION_LAST_STEP)
            {
                out.printf("%26s  %14s  %s%n", value <= 0 ? "never" : Instant.ofEpochMilli(value), "", "retention: journal clock of the last step");
                return;
            }
            if ((typeId == CounterTypes.RETENTION_OLDEST_OFFSET && value < 0) || (typeId == CounterTypes.RETENTION_EVENTS_FLOOR && value == Long.MAX_VALUE))
            {
                out.printf("%26s  %14s  %s%n", value < 0 ? "none" : "nothing held", "", label);
                return;
            }
            final Long before = previous.get(label);
            final String rate = before == null || Math.abs(value) == Long.MAX_VALUE || before == Long.MIN_VALUE || before == Long.MAX_VALUE
                ? "" : String.format("%,.0f", (value - before) / seconds);
            out.printf("%26s  %14s  %s%n", format(value), rate, label);
        });
        if (!histograms.isEmpty())
        {
            out.println();
            out.printf("%-18s%14s%12s%12s%12s%12s%14s%n", "latency (ns)", "count", "p50", "p90", "p99", "p99.9", "max");
            histograms.forEach((base, fields) ->
                out.printf("%-18s%14s%12s%12s%12s%12s%14s%n", CounterTypes.histogramName(base), format(fields[0]), format(fields[1]),
                    format(fields[2]), format(fields[3]), format(fields[4]), format(fields[5])));
        }
        out.println();
    }

    /** @return true for the clock counter of that type id, or of that label in a file of before type ids. */
    private static boolean isClock(final int typeId, final String label, final int clockTypeId, final String clockLabel)
    {
        return typeId == clockTypeId || (typeId == CounterTypes.LEGACY && clockLabel.equals(label));
    }
}
