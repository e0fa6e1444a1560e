package dev.weir.cli;

import dev.weir.journal.OutputJournal;

/**
 * What an export of an output journal wrote, or, from {@link #of(OutputJournal)}, what the output journal
 * holds. Immutable.
 *
 * @param results    the result rows.
 * @param late       the late events.
 * @param partitions the date partitions replaced, or 1 for an export into one results file.
 */
record ExportCounts(long results, long late, int partitions)
{
    /** Nothing exported: a run that delivers into PostgreSQL only. */
    static final ExportCounts NONE = new ExportCounts(0, 0, 0);

    ExportCounts
    {
        assert results >= 0 && late >= 0 && partitions >= 0 : results + ", " + late + ", " + partitions;
    }

    /**
     * Count the results and late events of an output journal, reading it whole.
     *
     * @param output the output journal.
     * @return its counts, without partitions.
     */
    static ExportCounts of(final OutputJournal output)
    {
        final Tally tally = new Tally();
        output.readAll(stored -> tally.count(stored.isResult()));
        return tally.counts(0);
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
         * @return the counts so far.
         */
        ExportCounts counts(final int partitions)
        {
            return new ExportCounts(results, late, partitions);
        }
    }
}
