package dev.weir.postgres;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.KeyDictionary;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.ResultDecoder;

/**
 * What a results table should hold, computed from an output journal without the sink: the highest
 * version of every window, as the tests' rows ({@code key,window_start,window_end,count,sum,min,max,version}),
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
        final Map<String, String> rows = new HashMap<>();
        final Map<String, Integer> versions = new HashMap<>();
        try (KeyDictionary keys = KeyDictionary.open(journal); OutputJournal output = OutputJournal.open(journal))
        {
            output.readAll(stored ->
            {
                if (stored.isResult())
                {
                    final ResultDecoder r = stored.result();
                    final String window = keys.name(r.keyId()) + "," + r.windowStart() + "," + r.windowEnd();
                    if (versions.getOrDefault(window, -1) < r.version())
                    {
                        versions.put(window, r.version());
                        rows.put(window, window + "," + r.count() + "," + r.sum() + "," + r.min() + "," + r.max() + "," + r.version());
                    }
                }
            });
        }
        final List<String> sorted = new ArrayList<>(rows.values());
        Collections.sort(sorted);
        return sorted;
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
