package dev.weir.engine.status;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Formatter;
import java.util.HashMap;
import java.util.Map;

import dev.weir.journal.JournalDirectory;

/**
 * An {@link EngineStat} as text, the block {@code weir stat} prints for one pipeline, for a service's logs or admin
 * endpoint: a header line (when, which pipeline, the writer's pid, whether it runs, when it started); the counters
 * table, a line per counter with its value and, given an earlier reading of the same run, its change per second
 * since then; the latency histogram table (count, p50, p90, p99, p99.9, max in ns) if the run has histograms; an
 * empty line. Each line ends with the platform's line separator; numbers are grouped as the default locale groups
 * them. Stateless; a call writes on the caller's thread.
 */
public final class EngineStatReport
{
    private static final String ROW = "%26s  %14s  %s%n";
    private static final String LATENCY_ROW = "%-18s%14s%12s%12s%12s%12s%14s%n";

    private final Formatter out;

    private EngineStatReport(final Appendable out)
    {
        this.out = new Formatter(out);
    }

    /**
     * @param out      where to write (not closed).
     * @param pipeline the pipeline the reading is of, named in the header.
     * @param now      when it was read: the header's time, and the clock the {@code time since} counters count from.
     * @param stat     the reading.
     * @param previous an earlier reading of the same pipeline, or null: the changes per second are shown only if it is
     *                 of the same run ({@link EngineStat#startedMillis()}).
     * @param seconds  the time between the two readings, in seconds (ignored without rates).
     * @throws UncheckedIOException if {@code out} fails.
     */
    public static void write(
        final Appendable out, final JournalDirectory pipeline, final Instant now, final EngineStat stat, final EngineStat previous, final double seconds)
    {
        final EngineStatReport report = new EngineStatReport(out);
        report.header(pipeline, now, stat);
        report.counters(stat, previous != null && previous.startedMillis() == stat.startedMillis() ? valuesByLabel(previous) : Map.of(),
            now.toEpochMilli(), seconds);
        report.histograms(stat);
        report.out.format("%n");
        final IOException failure = report.out.ioException();
        if (failure != null)
        {
            throw new UncheckedIOException(failure);
        }
    }

    private void header(final JournalDirectory pipeline, final Instant now, final EngineStat stat)
    {
        out.format("%s  %s  pid %d (%s), started %s%n", now, pipeline, stat.pid(),
            stat.running() ? "running" : "not running: last values", Instant.ofEpochMilli(stat.startedMillis()));
    }

    private void counters(final EngineStat stat, final Map<String, Long> previous, final long nowMillis, final double seconds)
    {
        out.format(ROW, "value", previous.isEmpty() ? "" : "per second", "counter");
        for (final EngineStat.Counter counter : stat.counters())
        {
            final long value = counter.value();
            final EngineStat.Kind kind = counter.kind();
            if (kind == EngineStat.Kind.LAST_EVENT_READ || kind == EngineStat.Kind.LAST_HEARTBEAT_READ)
            {
                out.format(ROW, since(value, nowMillis), "", kind == EngineStat.Kind.LAST_EVENT_READ
                    ? "time since the last event read" : "time since the last heartbeat read");
            }
            else if (kind == EngineStat.Kind.RETENTION_LAST_STEP)
            {
                out.format(ROW, value <= 0 ? "never" : Instant.ofEpochMilli(value), "", "retention: journal clock of the last step");
            }
            else if ((kind == EngineStat.Kind.RETENTION_OLDEST_OFFSET && value < 0) || (kind == EngineStat.Kind.RETENTION_EVENTS_FLOOR
                && value == Long.MAX_VALUE))
            {
                out.format(ROW, value < 0 ? "none" : "nothing held", "", counter.label());
            }
            else
            {
                final Long before = previous.get(counter.label());
                final String rate = before == null || Math.abs(value) == Long.MAX_VALUE || before == Long.MIN_VALUE || before == Long.MAX_VALUE
                    ? "" : String.format("%,.0f", (value - before) / seconds);
                out.format(ROW, format(value), rate, counter.label());
            }
        }
    }

    private void histograms(final EngineStat stat)
    {
        if (stat.histograms().isEmpty())
        {
            return;
        }
        out.format("%n");
        out.format(LATENCY_ROW, "latency (ns)", "count", "p50", "p90", "p99", "p99.9", "max");
        for (final EngineStat.Histogram h : stat.histograms())
        {
            out.format(LATENCY_ROW, h.name(), format(h.count()), format(h.p50()), format(h.p90()), format(h.p99()), format(h.p999()), format(h.max()));
        }
    }

    private static Map<String, Long> valuesByLabel(final EngineStat stat)
    {
        final Map<String, Long> values = new HashMap<>();
        stat.counters().forEach(counter -> values.put(counter.label(), counter.value()));
        return values;
    }

    private static String format(final long value)
    {
        return value == Long.MAX_VALUE ? "+infinity" : value == Long.MIN_VALUE ? "-infinity" : String.format("%,d", value);
    }

    /** @return the time from a wall clock to now, e.g. {@code 2.4 s ago}, or {@code never} for 0. */
    private static String since(final long wallClockMs, final long nowMillis)
    {
        return wallClockMs <= 0 ? "never" : String.format("%.1f s ago", Math.max(0, nowMillis - wallClockMs) / 1e3);
    }
}
