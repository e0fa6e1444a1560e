package dev.weir.postgres;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.ResultDecoder;

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
