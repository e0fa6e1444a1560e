package dev.weir.cli;

import java.nio.file.Path;

import dev.weir.engine.emit.WindowResult;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.LateEventDecoder;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.ResultFields;
import dev.weir.journal.files.AtomicTextFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exports a journal's output journal as CSV files: the results
 * ({@code window_start,window_end,key,count,sum,min,max,version}, then {@code aggregate} with a user aggregation) and, if asked, the late events
 * ({@code event_id,event_time,key,value}), in output order, each file written atomically. Because the
 * output journal holds every output exactly once, so does the export. Runs on the calling thread.
 * Logs the start and the end (rows written) of each export at INFO.
 */
final class OutputExport
{
    private static final Logger LOG = LoggerFactory.getLogger(OutputExport.class);

    private OutputExport()
    {
    }

    /** A file with aggregate columns gets a value in each of them in every row, never a stand-in 0. */
    private static void requireAggregates(final int aggregates, final ResultFields stored)
    {
        if (aggregates > 0 && stored.aggregateCount() < aggregates)
        {
            throw new IllegalStateException("the output journal holds a result with " + stored.aggregateCount()
                + " user aggregations' values, but the run has " + aggregates);
        }
    }

    /**
     * @param directory the journal.
     * @param results   the results CSV to write, or null.
     * @param late      the late-events CSV to write, or null.
     * @param columns   the pipeline's key and value columns and whether it has a user aggregation.
     * @return the rows written, counting the results file as one partition (results are counted without one too).
     */
    static ExportCounts export(final JournalDirectory directory, final Path results, final Path late, final RowColumns columns)
    {
        LOG.info("export of {} started: results to {}, late events to {}", directory, results == null ? "(none)" : results, late == null ? "(none)" : late);
        final ExportCounts written = exportFiles(directory, results, late, columns);
        LOG.info("export of {} done: {} results, {} late events", directory, written.results(), written.late());
        return written;
    }

    private static ExportCounts exportFiles(final JournalDirectory directory, final Path results, final Path late, final RowColumns columns)
    {
        final ExportCounts.Tally rows = new ExportCounts.Tally();
        try (KeyText keys = columns.keyText(directory);
             OutputJournal output = OutputJournal.open(directory);
             AtomicTextFile resultFile = results == null ? null : new AtomicTextFile(results);
             AtomicTextFile lateFile = late == null ? null : new AtomicTextFile(late))
        {
            final ResultRow format = columns.rows(directory, keys);
            final int aggregates = format.aggregates();
            if (resultFile != null)
            {
                resultFile.line(format.header());
            }
            if (lateFile != null)
            {
                lateFile.line(format.lateHeader());
            }
            final RowWriter writer = format.writer();
            output.readAll(stored ->
            {
                if (stored.isResult())
                {
                    requireAggregates(aggregates, stored.result());
                    rows.count(true);
                    if (resultFile != null)
                    {
                        writer.csv(resultFile.row(), stored.result());
                    }
                }
                else
                {
                    exportLate(stored.late(), writer, lateFile);
                    rows.count(false);
                }
            });
            if (resultFile != null)
            {
                resultFile.commit();
            }
            if (lateFile != null)
            {
                lateFile.commit();
            }
        }
        return rows.counts(1);
    }

    /**
     * Export the output journal's results as date partitions (see {@link PartitionedResults}), and its late
     * events as CSV.
     *
     * @param directory the journal.
     * @param outputDir the partitions' directory.
     * @param format    their file format.
     * @param late      the late-events CSV to write, or null.
     * @param columns   the pipeline's key and value columns and whether it has a user aggregation.
     * @param retained  what retention removed from the output journal, or null: the partitions of days that lost
     *                  results are then left as they are (a note on standard error says so), later days rewritten.
     * @return the rows and partitions written.
     */
    static ExportCounts exportPartitions(
        final JournalDirectory directory, final Path outputDir, final PartitionedResults.Format format, final Path late, final RowColumns columns,
        final RetainedOutputs retained)
    {
        LOG.info("export of {} started: results as {} partitions in {}, late events to {}", directory, format, outputDir, late == null ? "(none)" : late);
        final ExportCounts written = exportPartitionFiles(directory, outputDir, format, late, columns, retained);
        LOG.info("export of {} done: {} results in {} partitions, {} late events", directory, written.results(), written.partitions(),
            written.late());
        return written;
    }

    private static ExportCounts exportPartitionFiles(
        final JournalDirectory directory, final Path outputDir, final PartitionedResults.Format format, final Path late, final RowColumns columns,
        final RetainedOutputs retained)
    {
        final ExportCounts.Tally rows = new ExportCounts.Tally();
        try (KeyText keys = columns.keyText(directory);
             OutputJournal output = OutputJournal.open(directory);
             AtomicTextFile lateFile = late == null ? null : new AtomicTextFile(late))
        {
            final ResultRow rowFormat = columns.rows(directory, keys);
            try (PartitionedResults partitions = new PartitionedResults(outputDir, format, rowFormat, null,
                retained == null ? Long.MIN_VALUE : retained.firstCompleteDay()))
            {
                if (lateFile != null)
                {
                    lateFile.line(rowFormat.lateHeader());
                }
                final WindowResult result = new WindowResult();
                final RowWriter lateWriter = rowFormat.writer();
                output.readAll(stored ->
                {
                    if (stored.isResult())
                    {
                        requireAggregates(rowFormat.aggregates(), stored.result());
                        partitions.onResult(result.copy(stored.result()));
                        rows.count(true);
                    }
                    else
                    {
                        exportLate(stored.late(), lateWriter, lateFile);
                        rows.count(false);
                    }
                });
                assert rows.counts(0).results() == partitions.rows() + partitions.skipped() : "every result is in a partition or skipped";
                final ExportCounts all = rows.counts(partitions.commit().size());
                final ExportCounts written = new ExportCounts(all.results() - partitions.skipped(), all.late(), all.partitions());
                if (retained != null && retained.firstCompleteDay() != Long.MIN_VALUE)
                {
                    System.err.println(retained.partitionNote(partitions.skipped()));
                }
                if (lateFile != null)
                {
                    lateFile.commit();
                }
                return written;
            }
        }
    }

    private static void exportLate(final LateEventDecoder late, final RowWriter writer, final AtomicTextFile lateFile)
    {
        if (lateFile != null)
        {
            writer.late(lateFile.row(), late);
        }
    }
}
