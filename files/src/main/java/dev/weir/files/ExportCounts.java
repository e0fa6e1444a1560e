package dev.weir.files;

import dev.weir.journal.OutputJournal;

/**
 * What an export of an output journal wrote, or, from {@link #of(OutputJournal)}, what the output journal
 * holds. Immutable and thread-safe.
 *
 * @param results    the result rows written.
 * @param late       the late events.
 * @param partitions the date partitions replaced, or 1 for an export into one results file.
 * @param skipped    the result rows not written: their days' partitions are left as they are, because retention
 *                   removed some of those days' results ({@link RetainedOutputs}).
 */
public record ExportCounts(long results, long late, int partitions, long skipped)
{
    /** Nothing exported: a run that delivers into PostgreSQL only. */
    public static final ExportCounts NONE = new ExportCounts(0, 0, 0, 0);

    /**
     * @param results    the result rows written.
     * @param late       the late events.
     * @param partitions the date partitions replaced, or 1 for an export into one results file.
     * @param skipped    the result rows not written.
     */
    public ExportCounts
    {
        assert results >= 0 && late >= 0 && partitions >= 0 && skipped >= 0 : results + ", " + late + ", " + partitions + ", " + skipped;
    }

    /**
     * Count the results and late events of an output journal, reading it whole.
     *
     * @param output the output journal.
     * @return its counts, without partitions.
     */
    public static ExportCounts of(final OutputJournal output)
    {
        final Tally tally = new Tally();
        output.readAll(stored -> tally.count(stored.isResult()));
        return tally.counts(0, 0);
    }

    /** Counts outputs one at a time, as an export reads them. Not thread-safe. */
    static final class Tally
    {
        private long results;
        private long late;

        /**
         * @param result true for a result, false for a late event.
         */
        void count(final boolean result)
        {
            if (result)
            {
                results++;
            }
            else
            {
                late++;
            }
        }

        /**
         * @param partitions the date partitions written.
         * @param skipped    the results read but not written.
         * @return the counts so far.
         */
        ExportCounts counts(final int partitions, final long skipped)
        {
            return new ExportCounts(results - skipped, late, partitions, skipped);
        }
    }
}
