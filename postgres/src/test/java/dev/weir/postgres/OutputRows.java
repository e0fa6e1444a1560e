package dev.weir.postgres;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.codec.ResultDecoder;
import dev.weir.journal.codec.ResultKind;

/**
 * What a results table should hold, computed from an output journal without the sink's upserts: the highest
 * version of every window, as the tests' rows ({@code key,window_start,window_end,count,sum,min,max,version},
 * one field per key column),
 * sorted; and the highest event offset the outputs cover.
 */
public final class OutputRows
{
    private OutputRows()
    {
    }

    /**
     * @param journal a journal.
     * @return one row per window its output journal fired, of the highest version, sorted as strings.
     */
    public static List<String> highestVersions(final JournalDirectory journal)
    {
        return highestVersions(journal, ResultsTableShape.DEFAULT);
    }

    /**
     * @param journal a journal.
     * @param shape   the results table's columns: the pipeline's key and value columns.
     * @return one row per window its output journal fired, of the highest version, sorted as strings: the key
     *         columns' values, then {@code window_start,window_end,count,sum,min,max,version}, the value's sum,
     *         min and max at its scale, as the table's columns print.
     */
    public static List<String> highestVersions(final JournalDirectory journal, final ResultsTableShape shape)
    {
        final Map<String, String> rows = new HashMap<>();
        final Map<String, Integer> versions = new HashMap<>();
        final int scale = shape.valueScale();
        try (KeyFields keys = KeyFields.open(journal, shape); OutputJournal output = OutputJournal.open(journal))
        {
            output.readAll(stored ->
            {
                if (stored.isResult())
                {
                    final ResultDecoder r = stored.result();
                    final StringBuilder window = new StringBuilder();
                    for (int i = 0; i < shape.keyArity(); i++)
                    {
                        window.append(keys.value(r.keyId(), i)).append(',');
                    }
                    window.append(r.windowStart()).append(',').append(r.windowEnd());
                    if (versions.getOrDefault(window.toString(), -1) < r.version())
                    {
                        versions.put(window.toString(), r.version());
                        rows.put(window.toString(), window + "," + r.count() + "," + value(r.sum(), scale) + "," + value(r.min(), scale) + ","
                            + value(r.max(), scale) + "," + r.version());
                    }
                }
            });
        }
        final List<String> sorted = new ArrayList<>(rows.values());
        Collections.sort(sorted);
        return sorted;
    }

    /**
     * What a late-events table should hold: one row per late event of the output journal.
     *
     * @param journal a journal.
     * @param shape   the results table's columns (the late table has its key columns and value scale).
     * @return the key columns' values, then {@code value,event_id,event_time,event_offset} (value {@code null} with named
     *         aggregates); sorted as strings.
     */
    public static List<String> lateEvents(final JournalDirectory journal, final ResultsTableShape shape)
    {
        final List<String> rows = new ArrayList<>();
        try (KeyFields keys = KeyFields.open(journal, shape); OutputJournal output = OutputJournal.open(journal))
        {
            output.readAll(stored ->
            {
                if (!stored.isResult())
                {
                    final dev.weir.journal.codec.LateEventDecoder late = stored.late();
                    final StringBuilder row = new StringBuilder();
                    for (int i = 0; i < shape.keyArity(); i++)
                    {
                        row.append(keys.value(late.keyId(), i)).append(',');
                    }
                    rows.add(row.append(shape.hasNamedAggregates() ? "null" : value(late.value(), shape.valueScale())).append(',').append(late.eventId()).append(',')
                        .append(late.eventTime()).append(',').append(late.offset()).toString());
                }
            });
        }
        Collections.sort(rows);
        return rows;
    }

    /**
     * What the table of a pipeline should hold after a delivery of its whole output journal, read with the
     * journal's own reader: one row per final window. A final window is a window of the journal's final rows,
     * at its highest version, whose bounds lie inside no other final row's of its key (a session that grew or
     * merged supersedes the rows of its key inside it, as its version counts them). With the shape's
     * {@code early} column, a window is early ({@code t}) if an early row of its key lies inside it.
     *
     * @param journal a journal.
     * @param shape   the results table's columns.
     * @return the key columns' values, then {@code window_start,window_end,count,sum,min,max,version} (with named
     *         aggregates, their columns instead of count, sum, min and max), and {@code early} with the shape's early
     *         column; sorted as strings.
     */
    public static List<String> finalWindows(final JournalDirectory journal, final ResultsTableShape shape)
    {
        final Map<String, Map<String, long[]>> finals = new HashMap<>(); // per key, per window: {start, end, version, count, sum, min, max}
        final Map<String, List<long[]>> early = new HashMap<>(); // per key: {start, end}
        try (KeyFields keys = KeyFields.open(journal, shape); OutputJournal output = OutputJournal.open(journal))
        {
            output.readAll(stored ->
            {
                if (!stored.isResult() || stored.result().kind() == ResultKind.UPDATE)
                {
                    return;
                }
                final ResultDecoder r = stored.result();
                final StringBuilder key = new StringBuilder();
                for (int i = 0; i < shape.keyArity(); i++)
                {
                    key.append(keys.value(r.keyId(), i)).append(',');
                }
                if (r.kind() == ResultKind.EARLY)
                {
                    early.computeIfAbsent(key.toString(), k -> new ArrayList<>()).add(new long[] {r.windowStart(), r.windowEnd()});
                    return;
                }
                final long[] window = new long[7 + r.aggregateCount()];
                final long[] fields = {r.windowStart(), r.windowEnd(), r.version(), r.count(), r.sum(), r.min(), r.max()};
                System.arraycopy(fields, 0, window, 0, fields.length);
                for (int i = 0; i < r.aggregateCount(); i++)
                {
                    window[7 + i] = r.aggregate(i);
                }
                finals.computeIfAbsent(key.toString(), k -> new HashMap<>())
                    .merge(r.windowStart() + "," + r.windowEnd(), window, (was, now) -> now[2] > was[2] ? now : was);
            });
        }
        final int scale = shape.valueScale();
        final List<String> rows = new ArrayList<>();
        finals.forEach((key, byBounds) ->
        {
            final java.util.Collection<long[]> windows = byBounds.values();
            for (final long[] w : windows)
            {
                if (windows.stream().anyMatch(o -> o != w && inside(w[0], w[1], o)))
                {
                    continue; // superseded
                }
                final String row = key + w[0] + "," + w[1] + "," + (shape.hasNamedAggregates() ? named(w, shape) : w[3] + "," + value(w[4], scale)
                    + "," + value(w[5], scale) + "," + value(w[6], scale)) + "," + w[2];
                final boolean alerted = early.getOrDefault(key, List.of()).stream().anyMatch(e -> inside(e[0], e[1], w));
                rows.add(shape.hasEarly() ? row + "," + (alerted ? "t" : "f") : row);
            }
        });
        Collections.sort(rows);
        return rows;
    }

    /** @return true if {@code [start, end)} lies inside the window {@code {start, end, ...}}. */
    private static boolean inside(final long start, final long end, final long[] window)
    {
        return window[0] <= start && end <= window[1];
    }

    /**
     * @param window {start, end, version, count, sum, min, max, then the named aggregates' values and presence mask}.
     * @return the named aggregates' columns as the table prints them: at each one's scale, {@code null} where empty.
     */
    private static String named(final long[] window, final ResultsTableShape shape)
    {
        final int count = shape.namedAggregateCount();
        final long presence = window[7 + count];
        final StringBuilder columns = new StringBuilder();
        for (int i = 0; i < count; i++)
        {
            columns.append(i == 0 ? "" : ",").append((presence & 1L << i) == 0 ? "null" : value(window[7 + i], shape.namedAggregateScale(i)));
        }
        return columns.toString();
    }

    private static String value(final long unscaled, final int scale)
    {
        return scale == 0 ? Long.toString(unscaled) : java.math.BigDecimal.valueOf(unscaled, scale).toPlainString();
    }

    /**
     * @param journal a journal.
     * @return the highest event offset its outputs cover, or -1 (event offsets differ between two journals of the same lines).
     */
    public static long lastSourceOffset(final JournalDirectory journal)
    {
        final long[] highest = {-1};
        try (OutputJournal output = OutputJournal.open(journal))
        {
            output.readAll(stored -> highest[0] = Math.max(highest[0], stored.isResult() ? stored.result().sourceOffset() : stored.late().offset()));
        }
        return highest[0];
    }
}
