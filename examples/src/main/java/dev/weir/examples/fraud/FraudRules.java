package dev.weir.examples.fraud;

import java.time.Duration;

import dev.weir.engine.PipelineBuilder;
import dev.weir.engine.Weir;
import dev.weir.engine.aggregate.ApproxDistinct;
import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.engine.window.TumblingWindows;

/**
 * The fraud detector's rules, each as the pipeline configuration the {@link FraudDetector} runs over its
 * journal of payments ({@value Payments#COLUMNS}) and its unit tests run: keys, joins, filters, values, windows
 * and early conditions, without a journal, a name or listeners, which the detector adds. The rules that join the
 * card profile table ({@link CardProfiles}) read, for each payment, its card's row as of the payment's time; a
 * payment whose card has no row then is left out of them. Every rule tolerates payments up to 1 s out of order.
 * <p>
 * Stateless and thread-safe; each call returns a new builder.
 */
final class FraudRules
{
    private FraudRules()
    {
    }

    /**
     * @return {@code spend}: a card's approved online spend net of fees in a sliding 60 s / 5 s window, with an
     *         early row on the payment that takes it above the card's own limit.
     */
    static PipelineBuilder spend()
    {
        return rule().keyColumn("card").join("cards").where("channel = 'online' and status = 'approved'").value("amount - fee")
            .window(SlidingWindows.of(Duration.ofMinutes(1), Duration.ofSeconds(5))).earlyWhen("sum > cards.limit");
    }

    /**
     * @return {@code abroad}: a card's payments outside its home country, per tumbling minute, with an update row for
     *         each such payment (its alert).
     */
    static PipelineBuilder abroad()
    {
        return rule().keyColumn("card").join("cards").where("country != cards.home").window(TumblingWindows.of(Duration.ofMinutes(1)))
            .emitUpdates(true);
    }

    /** @return {@code bursts}: a card's sessions of payments (gap 10 s); a session of more than {@link FraudDetector#BURST_LIMIT} alerts. */
    static PipelineBuilder bursts()
    {
        return rule().keyColumn("card").window(SessionWindows.withGap(Duration.ofSeconds(10)));
    }

    /**
     * @return {@code merchants}: the distinct merchants a card pays in a tumbling minute (aggregate 0); from
     *         {@link FraudDetector#MERCHANT_LIMIT} on, it alerts.
     */
    static PipelineBuilder merchants()
    {
        return rule().keyColumn("card").window(TumblingWindows.of(Duration.ofMinutes(1))).aggregate(ApproxDistinct.of("merchant"));
    }

    /**
     * @return {@code declines}: a card's declined payments in a sliding 60 s / 10 s window, with an early row on the
     *         decline that reaches {@link FraudDetector#DECLINE_LIMIT}.
     */
    static PipelineBuilder declines()
    {
        return rule().keyColumn("card").where("status = 'declined'").window(SlidingWindows.of(Duration.ofMinutes(1), Duration.ofSeconds(10)))
            .earlyWhen("count>=" + FraudDetector.DECLINE_LIMIT);
    }

    /** @return {@code places}: spend per merchant and country (a composite key) per tumbling minute. */
    static PipelineBuilder places()
    {
        return rule().keyColumns("merchant", "country").window(TumblingWindows.of(Duration.ofMinutes(1)));
    }

    private static PipelineBuilder rule()
    {
        return Weir.pipeline().valueColumn("amount").outOfOrderness(Duration.ofSeconds(1));
    }
}
