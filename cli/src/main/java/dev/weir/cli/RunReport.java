package dev.weir.cli;

import dev.weir.csv.CsvIngest;
import dev.weir.engine.RunSummary;
import dev.weir.files.ExportCounts;

/**
 * The one-paragraph summary {@code weir run} prints: what was ingested, whether the run resumed from a
 * checkpoint, what was processed (with the values and sums that wrapped, when any did), where the results and
 * late events went and what was delivered into PostgreSQL. Stateless.
 */
final class RunReport
{
    private RunReport()
    {
    }

    /**
     * @param job      the run.
     * @param in       the ingest's summary, or null without an input.
     * @param run      the pipeline's summary.
     * @param rows     what the export wrote.
     * @param delivery what was delivered into PostgreSQL, described, or null without a database.
     * @return the paragraph, ending with a full stop.
     */
    static String text(final RunJob job, final CsvIngest.Summary in, final RunSummary run, final ExportCounts rows, final String delivery)
    {
        final StringBuilder text = new StringBuilder();
        if (in != null)
        {
            text.append(String.format("Read %,d lines from %s: %,d events ingested into %s, %,d rejected",
                in.lines(), job.input(), in.ingested(), job.temporaryJournal() ? "a temporary journal" : "journal " + job.journal(), in.rejected()));
            if (in.skipped() > 0)
            {
                text.append(String.format(" (%,d lines were already ingested and were skipped)", in.skipped()));
            }
            text.append(". ");
        }
        if (run.resumedAfterOffset() >= 0)
        {
            text.append(String.format("Resumed from the checkpoint at offset %d (%,d outputs reproduced and verified, not written again). ",
                run.resumedAfterOffset(), run.suppressedOutputs()));
        }
        final boolean dedupe = job.processing().dedupe;
        text.append(String.format("Processed %,d events (%s%s) at %,.0f events/s, offsets %d..%d: %,d windows fired, "
                + "%,d late events dropped, %,d sent to the late output, %,d in no window",
            run.eventsThisRun(), job.window().describe(), dedupe ? ", dedupe" : "", run.eventsPerSecond(), run.firstOffset(), run.lastOffset(),
            run.windowsFired(), run.dropped(), run.sideOutput(), run.ignored()));
        if (dedupe)
        {
            text.append(String.format(", %,d duplicates ignored", run.duplicates()));
        }
        if (job.window().where != null)
        {
            text.append(String.format(", %,d filtered out by --where (since the journal's first event)", run.filtered()));
        }
        text.append(wrapped(run));
        text.append(String.format("; %d checkpoints (longest pause %.1f ms).", run.checkpoints(), run.maxCheckpointNanos() / 1e6));
        final boolean files = job.results() != null || job.outputDir() != null;
        if (files)
        {
            text.append(String.format(" Results: %s (%,d rows%s)", job.results() != null ? job.results() : job.outputDir(), rows.results(),
                job.results() != null ? "" : String.format(" in %,d date partitions", rows.partitions())));
        }
        if (job.lateOutput() != null)
        {
            text.append(String.format("%s late events: %s (%,d rows)", files ? "," : " Late", job.lateOutput(), rows.late()));
        }
        if (text.charAt(text.length() - 1) != '.')
        {
            text.append('.');
        }
        if (delivery != null)
        {
            text.append(' ').append(delivery).append('.');
        }
        return text.toString();
    }

    /**
     * @param run a pipeline's summary.
     * @return its wrapped values and sums as a clause to append ({@code ", values wrapped past the 64-bit range
     *         (kept as wrapped): 3 by --value, 1 in window sums"}), or empty when none wrapped.
     */
    static String wrapped(final RunSummary run)
    {
        return run.valuesWrapped() == 0 && run.sumsWrapped() == 0 ? ""
            : String.format(", values wrapped past the 64-bit range (kept as wrapped): %,d by --value, %,d in window sums",
                run.valuesWrapped(), run.sumsWrapped());
    }
}
