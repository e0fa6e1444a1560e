package dev.weir.examples.fraud;

import java.io.PrintStream;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.agrona.collections.IntHashSet;

/**
 * What a run of the {@link FraudDetector} found. Card sets hold card ids (the card column's string ids,
 * which are the key ids of the rules keyed by card).
 *
 * @param payments       payments made.
 * @param cards          ordinary cards.
 * @param fraudCards     the cards that made an injected burst.
 * @param warmupPayments the first payments, whose alerts are left out of the latencies (JIT warm-up).
 * @param spend          the spend rule's alerts.
 * @param abroad         the abroad rule's alerts.
 * @param bursts         the burst rule's alerts.
 * @param merchants      the distinct-merchants rule's alerts.
 * @param declines       the declines rule's alerts.
 * @param placeWindows   (merchant, country, minute) results of the places rule.
 * @param placeCents     their spend.
 * @param placePayments  the payments they counted.
 * @param paymentCents   the spend of every payment made.
 * @param elapsedNanos   the run's duration.
 */
public record FraudSummary(
    int payments,
    int cards,
    IntHashSet fraudCards,
    int warmupPayments,
    Rule spend,
    Rule abroad,
    Rule bursts,
    Rule merchants,
    Rule declines,
    long placeWindows,
    long placeCents,
    long placePayments,
    long paymentCents,
    long elapsedNanos)
{
    /**
     * One rule's alerts.
     *
     * @param cards   the cards it alerted.
     * @param windows the windows that raised an alert.
     * @param latency the alerts' latency from the append of the payment that raised each, ns, after the warm-up.
     * @param alerts  the alerts, in the order they were raised.
     */
    public record Rule(IntHashSet cards, long windows, Histogram latency, List<Alert> alerts)
    {
    }

    /**
     * One alert.
     *
     * @param payment     the number of the payment that raised it, from 0.
     * @param offset      that payment's journal offset.
     * @param windowStart the start of the window it is about.
     */
    public record Alert(int payment, long offset, long windowStart)
    {
    }

    /**
     * @param out where to print.
     */
    public void print(final PrintStream out)
    {
        out.printf("Weir fraud detector: %,d payments (%,d s of card traffic, %,d cards) in %.1f s; %d cards made injected bursts%n",
            payments, payments / 500, cards + fraudCards.size(), elapsedNanos / 1e9, fraudCards.size());
        rule(out, "spend rule (approved online spend net of fees above the card's own limit in a sliding 60 s / 5 s window,"
            + " early on the crossing payment)", spend, "window");
        rule(out, "abroad rule (payments outside the card's home country, as of the payment's time)", abroad, "payment");
        rule(out, String.format("burst rule (more than %d payments in a session, gap 10 s)", FraudDetector.BURST_LIMIT), bursts, "session");
        rule(out, String.format("merchants rule (%d or more distinct merchants in a minute)", FraudDetector.MERCHANT_LIMIT), merchants, "minute");
        rule(out, String.format("declines rule (%d or more declined payments in a sliding 60 s / 10 s window, early)", FraudDetector.DECLINE_LIMIT),
            declines, "window");
        out.printf("places rule (spend per merchant and country per minute): %,d results, %,d payments, %,.2f spent (payments made: %,.2f)%n",
            placeWindows, placePayments, placeCents / 100.0, paymentCents / 100.0);
        out.printf("alert latency, from the append of the payment that raised the alert, after the first %,d payments (JIT warm-up), µs:%n",
            warmupPayments);
        latency(out, "  spend", spend.latency());
        latency(out, "  abroad", abroad.latency());
        latency(out, "  burst", bursts.latency());
        latency(out, "  merchants", merchants.latency());
        latency(out, "  declines", declines.latency());
    }

    private void rule(final PrintStream out, final String name, final Rule rule, final String unit)
    {
        out.printf("%s: %d cards alerted (%d of the injected), %d %s alerts%n", name, rule.cards().size(), caught(rule.cards()), rule.windows(), unit);
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

    private static void latency(final PrintStream out, final String rule, final Histogram h)
    {
        out.printf("%s: p50 %,.1f  p99 %,.1f  p99.9 %,.1f  max %,.1f  (%,d alerts)%n", rule, h.getValueAtPercentile(50) / 1e3,
            h.getValueAtPercentile(99) / 1e3, h.getValueAtPercentile(99.9) / 1e3, h.getMaxValue() / 1e3, h.getTotalCount());
    }
}
