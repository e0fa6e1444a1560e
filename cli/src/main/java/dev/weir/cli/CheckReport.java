package dev.weir.cli;

import java.io.PrintStream;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import dev.weir.check.PartitionProfile;
import dev.weir.check.QualityCheck;
import dev.weir.check.QualityReport;

/**
 * What {@code weir check} prints: the rows per partition, then one line per check (result, what was
 * measured, the threshold, and what a failure means) in columns sized to their contents, and a last line
 * saying how many failed. Stateless.
 */
final class CheckReport
{
    private CheckReport()
    {
    }

    /**
     * @param out    where to print.
     * @param report the report.
     */
    static void print(final PrintStream out, final QualityReport report)
    {
        final PartitionProfile partitions = report.partitions().orElse(null);
        final List<QualityCheck> checks = report.checks();
        if (partitions != null && !partitions.rowsByDate().isEmpty())
        {
            out.printf("%-12s %12s%n", "partition", "rows");
            for (final Map.Entry<LocalDate, Long> partition : partitions.rowsByDate().entrySet())
            {
                out.printf("%-12s %,12d%n", partition.getKey(), partition.getValue());
            }
            out.println();
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
        out.println(String.format(format, "check", "result", "measured", "threshold", "detail").stripTrailing());
        for (final QualityCheck check : checks)
        {
            out.println(String.format(format, check.name(), check.status(), check.measured(), check.threshold(), check.detail()).stripTrailing());
        }
        final long failed = report.failed();
        out.println(failed == 0 ? "All checks passed." : failed + (failed == 1 ? " check failed." : " checks failed."));
    }
}
