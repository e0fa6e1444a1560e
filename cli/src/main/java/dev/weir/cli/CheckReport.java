package dev.weir.cli;

import java.io.PrintStream;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import dev.weir.check.PartitionProfile;
import dev.weir.check.QualityCheck;

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
     * @param out        where to print.
     * @param partitions the partitions' profile, or null.
     * @param checks     the checks, in order.
     */
    static void print(final PrintStream out, final PartitionProfile partitions, final List<QualityCheck> checks)
    {
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
        long failed = 0;
        for (final QualityCheck check : checks)
        {
            out.println(String.format(format, check.name(), check.status(), check.measured(), check.threshold(), check.detail()).stripTrailing());
            failed += check.status() == QualityCheck.Status.FAIL ? 1 : 0;
        }
        out.println(failed == 0 ? "All checks passed." : failed + (failed == 1 ? " check failed." : " checks failed."));
    }
}
