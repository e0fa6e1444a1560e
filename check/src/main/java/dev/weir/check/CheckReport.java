package dev.weir.check;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.util.Formatter;
import java.util.List;
import java.util.Map;

/**
 * A {@link QualityReport} as text, what {@code weir check} prints, for a service's logs or admin endpoint: the rows
 * per partition, then one line per check (result, what was measured, the threshold, and what a failure means) in
 * columns sized to their contents, and a last line saying how many failed. Each line ends with the platform's line
 * separator; numbers are grouped as the default locale groups them. Stateless; a call writes on the caller's thread.
 */
public final class CheckReport
{
    private CheckReport()
    {
    }

    /**
     * @param report the report.
     * @param out    where to write its text (not closed).
     * @throws UncheckedIOException if {@code out} fails.
     */
    public static void write(final QualityReport report, final Appendable out)
    {
        final Formatter text = new Formatter(out);
        final PartitionProfile partitions = report.partitions().orElse(null);
        final List<QualityCheck> checks = report.checks();
        if (partitions != null && !partitions.rowsByDate().isEmpty())
        {
            text.format("%-12s %12s%n", "partition", "rows");
            for (final Map.Entry<LocalDate, Long> partition : partitions.rowsByDate().entrySet())
            {
                text.format("%-12s %,12d%n", partition.getKey(), partition.getValue());
            }
            text.format("%n");
        }
        int name = "duplicates".length();
        int measured = "measured".length();
        int threshold = "threshold".length();
        for (final QualityCheck check : checks)
        {
            name = Math.max(name, check.name().length());
            measured = Math.max(measured, check.measured().length());
            threshold = Math.max(threshold, check.threshold().length());
        }
        final String format = "%-" + name + "s %-6s %-" + measured + "s  %-" + threshold + "s  %s";
        text.format("%s%n", String.format(format, "check", "result", "measured", "threshold", "detail").stripTrailing());
        for (final QualityCheck check : checks)
        {
            text.format("%s%n", String.format(format, check.name(), check.status(), check.measured(), check.threshold(), check.detail()).stripTrailing());
        }
        final long failed = report.failed();
        text.format("%s%n", failed == 0 ? "All checks passed." : failed + (failed == 1 ? " check failed." : " checks failed."));
        final IOException failure = text.ioException();
        if (failure != null)
        {
            throw new UncheckedIOException(failure);
        }
    }
}
