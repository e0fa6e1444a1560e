package dev.weir.cli;

import java.nio.file.Path;
import java.util.Locale;

import dev.weir.csv.CsvIngest;
import dev.weir.engine.RunSummary;
import dev.weir.engine.time.DurationText;
import dev.weir.files.ExportCounts;

/**
 * The summary {@code weir run} prints, a table of one {@code name  value} line each: what was ingested, whether
 * the run resumed from a checkpoint, what was processed (with the values and sums that wrapped, when any did),
 * where the results and late events went and what was delivered into PostgreSQL; and the warning a run with
 * many late events ends with. Stateless.
 */
final class RunReport
{
    /** The width of the name column. */
    private static final int NAME = 16;

    private RunReport()
    {
    }

    /**
     * @param job      the run.
     * @param in       the ingest's summary, or null without an input.
     * @param run      the pipeline's summary.
     * @param rows     what the export wrote.
     * @param delivery what was delivered into PostgreSQL, described, or null without a database.
     * @return the table, one line per fact, ending with a line separator.
     */
    static String text(final RunJob job, final CsvIngest.Summary in, final RunSummary run, final ExportCounts rows, final String delivery)
    {
        final StringBuilder text = new StringBuilder();
        if (in != null)
        {
            line(text, "input", String.format("%s: %,d lines read, %,d events ingested, %,d rejected%s", job.input(), in.lines(), in.ingested(),
                in.rejected(), in.skipped() > 0 ? String.format(" (%,d lines already ingested, skipped)", in.skipped()) : ""));
        }
        line(text, "journal", job.temporaryJournal() ? "a temporary journal" : job.journal().toString());
        if (run.resumedAfterOffset() >= 0)
        {
            line(text, "resumed", String.format("from the checkpoint at offset %d (%,d outputs reproduced and verified, not written again)",
                run.resumedAfterOffset(), run.suppressedOutputs()));
        }
        final boolean dedupe = job.processing().dedupe;
        line(text, "window", job.window().describe() + (dedupe ? ", dedupe" : ""));
        line(text, "events", String.format("%,d", run.eventsThisRun()));
        if (job.follow())
        {
            line(text, "events/s", String.format("%,.0f (of busy time)", run.eventsPerBusySecond()));
            line(text, "busy", seconds(run.busyNanos()) + " (with events to process)");
        }
        else
        {
            line(text, "events/s", String.format("%,.0f", run.eventsPerSecond()));
        }
        line(text, "duration", seconds(run.elapsedNanos()));
        line(text, "offsets", run.firstOffset() + ".." + run.lastOffset());
        line(text, "windows fired", String.format("%,d", run.windowsFired()));
        line(text, "late dropped", String.format("%,d", run.dropped()));
        line(text, "late to output", String.format("%,d", run.sideOutput()));
        line(text, "in no window", String.format("%,d", run.ignored()));
        if (dedupe)
        {
            line(text, "duplicates", String.format("%,d ignored", run.duplicates()));
        }
        if (job.window().where != null)
        {
            line(text, "filtered", String.format("%,d by --where (since the journal's first event)", run.filtered()));
        }
        if (run.unmatched() != 0)
        {
            line(text, "unmatched", String.format("%,d with no row in a joined table (since the journal's first event)", run.unmatched()));
        }
        if (run.valuesWrapped() != 0 || run.sumsWrapped() != 0)
        {
            line(text, "values wrapped", String.format("%,d by --value, %,d in window sums (past the 64-bit range, kept as wrapped)",
                run.valuesWrapped(), run.sumsWrapped()));
        }
        line(text, "checkpoints", String.format("%d (longest pause %.1f ms)", run.checkpoints(), run.maxCheckpointNanos() / 1e6));
        if (job.results() != null)
        {
            line(text, "results", String.format("%s (%,d rows)", job.results(), rows.results()));
        }
        else if (job.outputDir() != null)
        {
            line(text, "results", String.format("%s (%,d rows in %,d date partitions)", job.outputDir(), rows.results(), rows.partitions()));
        }
        if (job.lateOutput() != null)
        {
            line(text, "late output", String.format("%s (%,d rows)", job.lateOutput(), rows.late()));
        }
        if (delivery != null)
        {
            line(text, "postgresql", delivery);
        }
        return text.toString();
    }

    /**
     * @param journal the journal replayed.
     * @param window  the configuration, described.
     * @param run     the replay's summary.
     * @param late    where late events went.
     * @param written what the replay wrote, described.
     * @return the replay's table, one line per fact, ending with a line separator.
     */
    static String replayText(final Path journal, final String window, final RunSummary run, final Object late, final String written)
    {
        final StringBuilder text = new StringBuilder();
        line(text, "replayed", journal.toString());
        line(text, "window", window);
        line(text, "events", String.format("%,d", run.events()));
        line(text, "offsets", run.firstOffset() + ".." + run.lastOffset());
        line(text, "windows fired", String.format("%,d", run.windowsFired()));
        line(text, "late dropped", String.format("%,d", run.dropped()));
        line(text, "late to output", late == null ? String.format("%,d", run.sideOutput()) : String.format("%,d (%s)", run.sideOutput(), late));
        line(text, "in no window", String.format("%,d", run.ignored()));
        if (run.valuesWrapped() != 0 || run.sumsWrapped() != 0)
        {
            line(text, "values wrapped", String.format("%,d by --value, %,d in window sums (past the 64-bit range, kept as wrapped)",
                run.valuesWrapped(), run.sumsWrapped()));
        }
        line(text, "results", written);
        return text.toString();
    }

    /**
     * @param run a pipeline's summary.
     * @return the warning to print on standard error when more than 1% of the run's events were late, naming the
     *         out-of-orderness that would have kept 99% on time; else null.
     */
    static String lateWarning(final RunSummary run)
    {
        if (!run.manyLate())
        {
            return null;
        }
        return String.format(Locale.ROOT, "weir: warning: %.1f%% of events were late (%,d of %,d); --out-of-orderness %s would have kept %d%% on time",
            run.lateThisRun() * 100.0 / run.eventsThisRun(), run.lateThisRun(), run.eventsThisRun(),
            DurationText.format(run.onTimeOutOfOrderness()), RunSummary.ON_TIME_PERCENT);
    }

    private static void line(final StringBuilder text, final String name, final String value)
    {
        text.append(name).append(" ".repeat(Math.max(2, NAME - name.length()))).append(value).append(System.lineSeparator());
    }

    private static String seconds(final long nanos)
    {
        return String.format("%.1f s", nanos / 1e9);
    }
}
