package dev.weir.examples.fraud;

import java.io.PrintStream;

import org.HdrHistogram.Histogram;
import org.agrona.collections.IntHashSet;

/**
 * What a run of the {@link FraudDetector} found. Card sets hold card ids (the card column's string ids,
 * which are the key ids of the rules keyed by card).
 *
 * @param payments         payments made.
 * @param cards            ordinary cards.
 * @param fraudCards       the cards that made an injected burst.
 * @param spendCards       the cards the spend rule alerted.
 * @param burstCards       the cards the burst rule alerted.
 * @param merchantCards    the cards the distinct-merchants rule alerted.
 * @param spendWindows     windows that raised a spend alert.
 * @param burstWindows     sessions that raised a burst alert.
 * @param merchantWindows  minutes that raised a distinct-merchants alert.
 * @param warmupPayments   the first payments, whose alerts are left out of the latencies (JIT warm-up).
 * @param spendLatency     spend alert latency, ns.
 * @param burstLatency     burst alert latency, ns.
 * @param merchantLatency  distinct-merchants alert latency, ns.
 * @param placeWindows     (merchant, country, minute) results of the places rule.
 * @param placeCents       their spend.
 * @param placePayments    the payments they counted.
 * @param paymentCents     the spend of every payment made.
 * @param elapsedNanos     the run's duration.
 */
public record FraudSummary(
    int payments,
    int cards,
    IntHashSet fraudCards,
    IntHashSet spendCards,
    IntHashSet burstCards,
    IntHashSet merchantCards,
    long spendWindows,
    long burstWindows,
    long merchantWindows,
    int warmupPayments,
    Histogram spendLatency,
    Histogram burstLatency,
    Histogram merchantLatency,
    long placeWindows,
    long placeCents,
    long placePayments,
    long paymentCents,
    long elapsedNanos)
{
    /**
     * @param out where to print.
     */
    public void print(final PrintStream out)
    {
        out.printf("Weir fraud detector: %,d payments (%,d s of card traffic, %,d cards) in %.1f s; %d cards made injected bursts%n",
            payments, payments / 500, cards + fraudCards.size(), elapsedNanos / 1e9, fraudCards.size());
        out.printf("spend rule (online payments' sum > %,.2f in a sliding 60 s / 5 s window, early on the crossing payment): %d cards alerted (%d of the injected), "
            + "%d window alerts%n",
            FraudDetector.SPEND_LIMIT_CENTS / 100.0, spendCards.size(), caught(spendCards), spendWindows);
        out.printf("burst rule (more than %d payments in a session, gap 10 s): %d cards alerted (%d of the injected), %d session alerts%n",
            FraudDetector.BURST_LIMIT, burstCards.size(), caught(burstCards), burstWindows);
        out.printf("merchants rule (%d or more distinct merchants in a minute): %d cards alerted (%d of the injected), %d minute alerts%n",
            FraudDetector.MERCHANT_LIMIT, merchantCards.size(), caught(merchantCards), merchantWindows);
        out.printf("places rule (spend per merchant and country per minute): %,d results, %,d payments, %,.2f spent (payments made: %,.2f)%n",
            placeWindows, placePayments, placeCents / 100.0, paymentCents / 100.0);
        out.printf("alert latency, from the append of the payment that raised the alert (spend: the crossing one), "
            + "after the first %,d payments (JIT warm-up), µs:%n", warmupPayments);
        print(out, "  spend", spendLatency);
        print(out, "  burst", burstLatency);
        print(out, "  merchants", merchantLatency);
    }

    private int caught(final IntHashSet alerted)
    {
        int caught = 0;
        for (final int card : fraudCards)
        {
            caught += alerted.contains(card) ? 1 : 0;
        }
        return caught;
    }

    private static void print(final PrintStream out, final String rule, final Histogram h)
    {
        out.printf("%s: p50 %,.1f  p99 %,.1f  p99.9 %,.1f  max %,.1f  (%,d alerts)%n", rule, h.getValueAtPercentile(50) / 1e3,
            h.getValueAtPercentile(99) / 1e3, h.getValueAtPercentile(99.9) / 1e3, h.getMaxValue() / 1e3, h.getTotalCount());
    }
}
