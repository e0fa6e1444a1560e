package dev.weir.examples.fraud;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fraud detector's rules that do not join the card profiles, named pipelines over one journal of payments,
 * catch exactly the injected bursts, and its places rule counts every payment once ({@link CardProfileRulesTest}
 * checks the spend and abroad rules). Alerts depend only on the payments (event time), not on timing, so this holds
 * on any machine.
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
        // three declines in the first seconds of each burst, alerted early on the third: every injected card, no other
        assertEquals(summary.fraudCards(), summary.declines().cards());
        assertEquals(5 * 6, summary.declines().windows(), "one early row per window: each burst's three declines lie in six sliding windows");
        // the last burst's session is still open when the stream ends (following pipelines fire nothing at stop)
        assertEquals(4, summary.bursts().cards().size());
        assertTrue(summary.fraudCards().containsAll(summary.bursts().cards()), "only injected cards: " + summary.bursts().cards());
        // the bursts at 20 s and 40 s are in the minute [0, 60 s), which has closed; those at 60, 80 and 100 s are in [60 s, 120 s), still open
        assertEquals(2, summary.merchants().cards().size(), "cards alerted by distinct merchants: " + summary.merchants().cards());
        assertTrue(summary.fraudCards().containsAll(summary.merchants().cards()), "only injected cards: " + summary.merchants().cards());
        // latencies leave out the alerts raised by the first quarter of the payments (JIT warm-up): the early
        // alerts of the first burst (payment 10,000), which its own payments raise
        assertEquals(15_000, summary.warmupPayments());
        for (final FraudSummary.Rule rule : List.of(summary.spend(), summary.abroad(), summary.declines()))
        {
            assertTrue(rule.latency().getTotalCount() > 0 && rule.latency().getTotalCount() < rule.windows(),
                rule.latency().getTotalCount() + " of " + rule.windows() + " alerts measured");
        }
        for (final FraudSummary.Rule rule : List.of(summary.bursts(), summary.merchants()))
        {
            assertTrue(rule.latency().getTotalCount() <= rule.windows(), rule.latency().getTotalCount() + " of " + rule.windows());
        }
        assertEquals(60_000, summary.placePayments(), "the places rule counts every payment once");
        assertEquals(summary.paymentCents(), summary.placeCents());
        assertTrue(summary.placeWindows() > 4_000, "results per merchant, country and minute: " + summary.placeWindows());
        assertEquals(List.of("abroad", "bursts", "declines", "merchants", "places", "spend"),
            dev.weir.journal.JournalDirectory.open(dir.resolve("payments")).pipelines(), "six named pipelines on one journal");
    }

    @Test
    void theCsvHoldsTheSamePaymentsWithTheirColumns() throws Exception
    {
        final Path csv = dir.resolve("payments.csv");
        PaymentsCsv.write(csv, dir.resolve("cards.csv"), 20_000, 100_000, 42);
        final List<String> lines = Files.readAllLines(csv);
        assertEquals(20_001, lines.size());
        assertEquals("event_id,event_time,card,merchant,country,amount,fee,channel,status", lines.get(0));
        final Payments stream = new Payments(42, 100_000, FraudDetector.FRAUD_EVERY);
        stream.next(10_000);
        assertTrue(stream.fraud, "payment 10,000 starts a burst");
        assertTrue(lines.get(10_001).startsWith("10000,20000," + Payments.card(stream.card) + ","), lines.get(10_001));
        assertTrue(lines.get(10_001).endsWith(",online,declined"), "a burst starts with declines: " + lines.get(10_001));
        assertTrue(lines.stream().anyMatch(l -> l.contains(",\"Café \"\"")), "merchant names with quotes and commas are quoted");
    }

    @Test
    void theCardsCsvHoldsEachPayingCardsProfileThenTheThreeChanges() throws Exception
    {
        final Path csv = dir.resolve("payments.csv");
        final int rows = PaymentsCsv.write(csv, dir.resolve("cards.csv"), 50_000, 100_000, 42);
        final List<String> cards = Files.readAllLines(dir.resolve("cards.csv"));
        assertEquals(rows + 1, cards.size());
        assertEquals("event_time,card,home,limit,segment,op", cards.get(0));
        final long paying = Files.readAllLines(csv).stream().skip(1).map(l -> l.split(",")[2]).distinct().count();
        assertEquals(paying, cards.stream().filter(l -> l.startsWith("0,")).count(), "one profile, valid from 0, per card that pays");
        assertTrue(cards.contains("0,card-100000,FR,5000.00,standard,"), "the first burst's card as issued");
        // the bursts start at payments 20,000, 30,000 and 40,000 (times 40 s, 60 s, 80 s), a payment every second
        final List<String> changes = cards.stream().filter(l -> !l.startsWith("0,")).skip(1).collect(Collectors.toList());
        assertEquals(3, changes.size(), changes.toString());
        assertEquals("40000,card-100001,DE,20000.00,standard,", changes.get(0), "the limit raised from the burst's start");
        assertTrue(changes.get(1).startsWith("64000,card-100002,") && changes.get(1).endsWith(",5000.00,standard,")
            && !changes.get(1).contains(",IT,"), "the home moved from the burst's fifth payment: " + changes.get(1));
        assertEquals("85000,card-100003,,,,delete", changes.get(2), "the card deleted from the burst's sixth payment");
    }
}
