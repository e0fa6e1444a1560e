package com.example.payments;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.weir.engine.RunSummary;
import dev.weir.journal.StringDictionaries;
import dev.weir.journal.codec.ResultKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rule over a real journal, through the Java API: a bounded run gives the early alert and the final
 * sums, and only approved payments count.
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
            .onResult(r -> rows.add(r.keyId() + " " + r.kind() + " " + r.windowStart() + " " + r.sum()))
            .build()
            .runToEnd();

        final String card1;
        final String card2;
        try (StringDictionaries strings = StringDictionaries.open(dev.weir.journal.JournalDirectory.open(dir)))
        {
            card1 = String.valueOf(strings.dictionary(0).idOf("card-1"));
            card2 = String.valueOf(strings.dictionary(0).idOf("card-2"));
        }
        assertEquals(List.of(
            card1 + " " + ResultKind.EARLY + " 0 100000",
            card1 + " " + ResultKind.FINAL + " 0 100000",
            card2 + " " + ResultKind.FINAL + " 0 5000",
            card2 + " " + ResultKind.FINAL + " 60000 500"), rows);
        assertEquals(1, summary.filtered());
    }
}
