package dev.weir.engine.status;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import dev.weir.engine.metrics.CounterTypes;
import dev.weir.engine.metrics.EngineCounters;
import dev.weir.engine.metrics.MetricsFile;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.schema.NewerFormatException;
import org.agrona.concurrent.status.CountersReader;

/**
 * One reading of a pipeline's metrics file ({@code metrics.dat}), as {@code weir stat} shows it: the writer's
 * process and start, whether it still runs, each counter in the file's order with its label and value, and the
 * latency histograms. A counter is told apart by {@link Kind}, from its type id (or, in a file written before
 * counters had type ids, its label); a histogram's six counters are gathered into one {@link Histogram}. The file is
 * opened, read once and closed: read again for newer values (a new run replaces the file). Immutable; {@link #read}
 * may run on any thread of any process.
 *
 * @param pid           the process id of the run that writes the file.
 * @param running       true if that run had not ended when read (it marks its end, and a killed run's process is gone).
 * @param startedMillis when that run created the file, epoch ms: two readings of the same run have the same.
 * @param counters      every counter but the histograms', in the file's order.
 * @param histograms    the latency histograms, {@code read-to-applied} then {@code fire-to-listener}, those the file has.
 */
public record EngineStat(long pid, boolean running, long startedMillis, List<Counter> counters, List<Histogram> histograms)
{
    /** What a counter is, where it is shown other than as a number. */
    public enum Kind
    {
        /** A count or a gauge, shown as a number ({@link Long#MAX_VALUE} and {@link Long#MIN_VALUE} as infinities). */
        VALUE,
        /** The journal offset of the last event applied; negative before the first. */
        OFFSET_APPLIED,
        /** The wall clock, epoch ms, of the last poll that read an event; 0 before the first. */
        LAST_EVENT_READ,
        /** The wall clock, epoch ms, of the last poll that read a heartbeat; 0 before the first. */
        LAST_HEARTBEAT_READ,
        /** Retention: the journal clock of its last step, epoch ms; 0 before the first. */
        RETENTION_LAST_STEP,
        /** Retention: the oldest events offset the journal held after the last step; -1 for none. */
        RETENTION_OLDEST_OFFSET,
        /** Retention: the events floor the last step respected; {@link Long#MAX_VALUE} when nothing was held. */
        RETENTION_EVENTS_FLOOR
    }

    /**
     * One counter.
     *
     * @param label its label, for people (labels may be reworded between releases: tell counters apart by kind).
     * @param value its value when read.
     * @param kind  what it is, where that matters to how it is shown.
     */
    public record Counter(String label, long value, Kind kind)
    {
    }

    /**
     * One latency histogram of the run, in nanoseconds.
     *
     * @param name  {@code read-to-applied} or {@code fire-to-listener}.
     * @param count values recorded.
     * @param p50   the 50th percentile.
     * @param p90   the 90th percentile.
     * @param p99   the 99th percentile.
     * @param p999  the 99.9th percentile.
     * @param max   the greatest value.
     */
    public record Histogram(String name, long count, long p50, long p90, long p99, long p999, long max)
    {
    }

    /**
     * Compact constructor: the lists are copied, unmodifiable.
     */
    public EngineStat
    {
        counters = List.copyOf(counters);
        histograms = List.copyOf(histograms);
    }

    /**
     * @param journal a journal.
     * @return the journal as each of its pipelines that has a metrics file sees it, the default pipeline first; empty if
     *         none has (no pipeline with durable outputs has run on it).
     */
    public static List<JournalDirectory> pipelinesWithMetrics(final JournalDirectory journal)
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
        return pipelines;
    }

    /**
     * @param pipeline the journal as a pipeline sees it ({@link JournalDirectory#pipeline(String)}).
     * @return its metrics file, read now.
     * @throws IllegalStateException if it has no metrics file, or the file is not one (or is still being created).
     * @throws NewerFormatException  if the file was written by a newer Weir.
     */
    public static EngineStat read(final JournalDirectory pipeline)
    {
        return read(pipeline.metricsFile());
    }

    /**
     * @param file a metrics file.
     * @return its values, read now.
     * @throws IllegalStateException if there is no file, or it is not a metrics file (or is still being created).
     * @throws NewerFormatException  if the file was written by a newer Weir.
     */
    public static EngineStat read(final Path file)
    {
        try (MetricsFile metrics = MetricsFile.open(file))
        {
            final CountersReader reader = metrics.reader();
            final List<Counter> counters = new ArrayList<>();
            final Map<Integer, long[]> histograms = new TreeMap<>();
            reader.forEach((id, typeId, key, label) ->
            {
                final long value = reader.getCounterValue(id);
                final int histogram = CounterTypes.histogramOf(typeId);
                if (histogram > 0)
                {
                    histograms.computeIfAbsent(histogram, h -> new long[CounterTypes.MAX])[typeId - histogram - 1] = value;
                }
                else
                {
                    counters.add(new Counter(label, value, kindOf(typeId, label)));
                }
            });
            final List<Histogram> latencies = new ArrayList<>();
            histograms.forEach((base, f) -> latencies.add(new Histogram(CounterTypes.histogramName(base), f[0], f[1], f[2], f[3], f[4], f[5])));
            return new EngineStat(metrics.pid(), metrics.running(), metrics.startedMillis(), counters, latencies);
        }
    }

    /**
     * @param kind a kind of counter.
     * @return the value of the first counter of that kind, or {@link Long#MIN_VALUE} if the file has none.
     */
    public long value(final Kind kind)
    {
        for (final Counter counter : counters)
        {
            if (counter.kind() == kind)
            {
                return counter.value();
            }
        }
        return Long.MIN_VALUE;
    }

    private static Kind kindOf(final int typeId, final String label)
    {
        if (typeId == CounterTypes.LEGACY) // a file of before type ids: the counters inspect and stat single out, by label
        {
            return EngineCounters.OFFSET_APPLIED.equals(label) ? Kind.OFFSET_APPLIED : EngineCounters.LAST_EVENT_READ.equals(label)
                ? Kind.LAST_EVENT_READ : EngineCounters.LAST_HEARTBEAT_READ.equals(label) ? Kind.LAST_HEARTBEAT_READ : Kind.VALUE;
        }
        switch (typeId)
        {
            case CounterTypes.OFFSET_APPLIED:
                return Kind.OFFSET_APPLIED;
            case CounterTypes.LAST_EVENT_READ:
                return Kind.LAST_EVENT_READ;
            case CounterTypes.LAST_HEARTBEAT_READ:
                return Kind.LAST_HEARTBEAT_READ;
            case CounterTypes.RETENTION_LAST_STEP:
                return Kind.RETENTION_LAST_STEP;
            case CounterTypes.RETENTION_OLDEST_OFFSET:
                return Kind.RETENTION_OLDEST_OFFSET;
            case CounterTypes.RETENTION_EVENTS_FLOOR:
                return Kind.RETENTION_EVENTS_FLOOR;
            default:
                return Kind.VALUE;
        }
    }
}
