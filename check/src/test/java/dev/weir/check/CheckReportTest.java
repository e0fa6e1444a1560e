package dev.weir.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

/**
 * {@link CheckReport} writes a {@link QualityReport} as {@code weir check} prints it: the rows per partition, the checks
 * in columns sized to their contents (trailing blanks stripped), and how many failed.
 */
class CheckReportTest
{
    private static final String N = System.lineSeparator();

    @Test
    void partitionsChecksAndTheFailuresAreWrittenInColumns()
    {
        final Map<LocalDate, Long> rows = new TreeMap<>(Map.of(LocalDate.of(2026, 1, 1), 12L, LocalDate.of(2026, 1, 2), 345L));
        final QualityReport report = new QualityReport(Optional.of(PartitionProfile.ofUniqueRows(rows)), List.of(
            new QualityCheck("late share", "0.5%", "<= 1%", QualityCheck.Status.PASS, ""),
            new QualityCheck("rejected share", "3.25%", "<= 1%", QualityCheck.Status.FAIL, "the input has bad lines"),
            new QualityCheck("gaps", "-", "-", QualityCheck.Status.SKIP, "no --output")));

        final StringBuilder text = new StringBuilder();
        CheckReport.write(report, text);

        assertEquals("partition            rows" + N
            + "2026-01-01             12" + N
            + "2026-01-02            345" + N
            + N
            + "check          result measured  threshold  detail" + N
            + "late share     PASS   0.5%      <= 1%" + N
            + "rejected share FAIL   3.25%     <= 1%      the input has bad lines" + N
            + "gaps           SKIP   -         -          no --output" + N
            + "1 check failed." + N, text.toString());
    }

    @Test
    void aReportWithoutPartitionsOrFailuresSaysAllPassed()
    {
        final StringBuilder text = new StringBuilder();
        CheckReport.write(new QualityReport(Optional.empty(), List.of(new QualityCheck("gaps", "0", "0", QualityCheck.Status.PASS, ""))), text);
        assertEquals("check      result measured  threshold  detail" + N
            + "gaps       PASS   0         0" + N
            + "All checks passed." + N, text.toString());
    }
}
