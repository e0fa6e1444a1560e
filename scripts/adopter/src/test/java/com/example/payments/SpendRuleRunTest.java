package com.example.payments;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.weir.engine.RunSummary;
import dev.weir.journal.codec.ResultKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rule over a real journal, through the Java API: a bounded run gives the early alert and the final
 * sums, and only approved payments count. The listener reads each card and sum as the payments wrote them, with no
 * dictionary of its own.
 */
final class SpendRuleRunTest
{
    @TempDir
    Path dir;

    @Test
    void boundedRunGivesEarlyAlertAndFinalSums()
    {
        try (PaymentsJournal payments = new PaymentsJournal(dir))
        {
            payments.append(1_000, "card-1", "600.00", "approved");
            payments.append(2_000, "card-2", "50.00", "approved");
            payments.append(3_000, "card-1", "900.00", "declined");
            payments.append(4_000, "card-1", "400.00", "approved");   // card-1 reaches 1,000.00: early alert
            payments.append(61_000, "card-2", "5.00", "approved");
        }
        final List<String> rows = new ArrayList<>();
        final RunSummary summary = SpendRule.on(dir)
            .onResult(r -> rows.add(r.key() + " " + r.kind() + " " + r.windowStart() + " " + r.sumText()))
            .build()
            .runToEnd();

        assertEquals(List.of(
            "card-1 " + ResultKind.EARLY + " 0 1000.00",
            "card-1 " + ResultKind.FINAL + " 0 1000.00",
            "card-2 " + ResultKind.FINAL + " 0 50.00",
            "card-2 " + ResultKind.FINAL + " 60000 5.00"), rows);
        assertEquals(1, summary.filtered());
    }
}
