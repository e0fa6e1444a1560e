package dev.weir.files;

import java.time.LocalDate;
import java.util.Optional;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.retention.OutputHistory;

/**
 * What retention removed from the start of a pipeline's output journal ({@link OutputHistory}), as an export
 * tells it, so that no export silently shrinks: a results or late-events file, which holds every output, cannot be
 * written complete ({@link #fileRefusal} words the refusal); date partitions are written only for the days after the day of the greatest
 * window start of a removed result (an earlier day may have lost rows; its partition is left as it is).
 * <p>
 * Immutable and thread-safe.
 */
public final class RetainedOutputs
{
    private static final long DAY_MS = 86_400_000L;

    private final String pipeline;
    private final OutputHistory history;

    private RetainedOutputs(final String pipeline, final OutputHistory history)
    {
        this.pipeline = pipeline;
        this.history = history;
    }

    /**
     * @param pipeline a journal, as one pipeline sees it.
     * @return what retention removed from its output journal, or empty if nothing.
     * @throws dev.weir.journal.JournalRefusedException if its output history is corrupt or of another journal.
     */
    public static Optional<RetainedOutputs> of(final JournalDirectory pipeline)
    {
        return OutputHistory.read(pipeline).map(history -> new RetainedOutputs(pipeline.pipelineName(), history));
    }

    /**
     * @param flag the flag of the file refused: {@code --results} or {@code --late-output}.
     * @return the refusal of an export into one results or late-events file.
     */
    public String fileRefusal(final String flag)
    {
        final long late = history.removedOutputs() - history.removedResults();
        final String days = history.maxRemovedWindowStart() == Long.MIN_VALUE ? "whole days are rewritten"
            : "whole days after " + LocalDate.ofEpochDay(lastIncompleteDay()) + " are rewritten";
        return String.format("retention removed the oldest %,d results%s of pipeline %s's output journal (%s): %s would miss "
                + "them; use --output-dir (%s)%s, --jdbc-url, or 'weir replay'", history.removedResults(),
            late == 0 ? "" : String.format(" and %,d late events", late), pipeline,
            history.archive() == null ? "deleted, not archived" : "archive " + history.archive(),
            "--results".equals(flag) ? "a results file" : "a --late-output file", days, "--results".equals(flag) ? "" : " without --late-output");
    }

    /**
     * @return the first UTC day (epoch days) whose partition holds every result: the day after the greatest window
     *         start of a removed result, or {@link Long#MIN_VALUE} if no result was removed.
     */
    public long firstCompleteDay()
    {
        return history.maxRemovedWindowStart() == Long.MIN_VALUE ? Long.MIN_VALUE : lastIncompleteDay() + 1;
    }

    /**
     * @param skipped the rows not written.
     * @return the note of an export into date partitions that left the days with removed results as they were.
     */
    public String partitionNote(final long skipped)
    {
        return String.format("retention removed the oldest %,d results of pipeline %s's output journal: partitions up to %s "
            + "are left as they are (rows not written: %,d), later days are rewritten", history.removedResults(), pipeline,
            LocalDate.ofEpochDay(lastIncompleteDay()), skipped);
    }

    private long lastIncompleteDay()
    {
        return Math.floorDiv(history.maxRemovedWindowStart(), DAY_MS);
    }
}
