package dev.weir.examples.fraud;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fraud detector's four rules, named pipelines over one journal of payments, catch exactly the
 * injected bursts, and its places rule counts every payment once. Alerts depend only on the payments
 * (event time), not on timing, so this holds on any machine.
 */
class FraudDetectorTest
{
    @TempDir
    Path dir;

    @Test
    void alertsExactlyTheInjectedCardsAndCountsEveryPaymentOnce() throws Exception
    {
        final FraudSummary summary = new FraudDetector(dir, 60_000, 100_000, 50_000, 42).run();
        assertEquals(5, summary.fraudCards().size(), "a burst every 10,000 payments");
        assertEquals(summary.fraudCards(), summary.spendCards());
        // the last burst's session is still open when the stream ends (following pipelines fire nothing at stop)
        assertEquals(4, summary.burstCards().size());
        assertTrue(summary.fraudCards().containsAll(summary.burstCards()), "only injected cards: " + summary.burstCards());
        // the bursts at 20 s and 40 s are in the minute [0, 60 s), which has closed; those at 60, 80 and 100 s are in [60 s, 120 s), still open
        assertEquals(2, summary.merchantCards().size(), "cards alerted by distinct merchants: " + summary.merchantCards());
        assertTrue(summary.fraudCards().containsAll(summary.merchantCards()), "only injected cards: " + summary.merchantCards());
        // latencies leave out the alerts of the first quarter of the payments (JIT warm-up): the first burst's
        assertEquals(15_000, summary.warmupPayments());
        assertTrue(summary.spendLatency().getTotalCount() > 0 && summary.spendLatency().getTotalCount() < summary.spendWindows(),
            summary.spendLatency().getTotalCount() + " of " + summary.spendWindows() + " spend alerts measured");
        assertTrue(summary.burstLatency().getTotalCount() > 0 && summary.burstLatency().getTotalCount() <= summary.burstWindows());
        assertTrue(summary.merchantLatency().getTotalCount() <= summary.merchantWindows());
        assertEquals(60_000, summary.placePayments(), "the places rule counts every payment once");
        assertEquals(summary.paymentCents(), summary.placeCents());
        assertTrue(summary.placeWindows() > 4_000, "results per merchant, country and minute: " + summary.placeWindows());
        assertEquals(List.of("bursts", "merchants", "places", "spend"),
            dev.weir.journal.JournalDirectory.open(dir.resolve("payments")).pipelines(), "four named pipelines on one journal");
    }

    @Test
    void theCsvHoldsTheSamePaymentsWithTheirColumns() throws Exception
    {
        final Path csv = dir.resolve("payments.csv");
        PaymentsCsv.write(csv, 20_000, 100_000, 42);
        final List<String> lines = Files.readAllLines(csv);
        assertEquals(20_001, lines.size());
        assertEquals("event_id,event_time,card,merchant,country,amount,channel", lines.get(0));
        final Payments stream = new Payments(42, 100_000, FraudDetector.FRAUD_EVERY);
        stream.next(10_000);
        assertTrue(stream.fraud, "payment 10,000 starts a burst");
        assertTrue(lines.get(10_001).startsWith("10000,20000," + Payments.card(stream.card) + ","), lines.get(10_001));
        assertTrue(lines.stream().anyMatch(l -> l.contains(",\"Café \"\"")), "merchant names with quotes and commas are quoted");
    }
}
