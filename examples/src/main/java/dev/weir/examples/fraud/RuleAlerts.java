package dev.weir.examples.fraud;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.emit.WindowResult;
import org.HdrHistogram.Histogram;
import org.agrona.collections.IntHashSet;
import org.agrona.collections.LongArrayList;

/**
 * One rule's alerts: for each, when it was raised, the offset of the payment whose processing fired
 * the window, and the window's start; and the cards alerted. Recorded on the rule's pipeline thread; read once its pipeline has
 * stopped (stopping a pipeline makes its thread's writes visible).
 */
final class RuleAlerts
{
    private final IntHashSet keys = new IntHashSet();
    private final LongArrayList alertNanos = new LongArrayList();
    private final LongArrayList alertOffsets = new LongArrayList();
    private final LongArrayList alertWindows = new LongArrayList();

    /**
     * @param r     a result of the rule's pipeline.
     * @param alert whether it breaks the rule.
     */
    void onResult(final WindowResult r, final boolean alert)
    {
        if (alert)
        {
            alertNanos.addLong(System.nanoTime());
            alertOffsets.addLong(r.sourceOffset());
            alertWindows.addLong(r.windowStart());
            keys.add(r.keyId());
        }
    }

    /** @return the key ids alerted (card ids for a rule keyed by card). */
    IntHashSet keys()
    {
        return keys;
    }

    /** @return the windows that raised an alert. */
    long windows()
    {
        return alertNanos.size();
    }

    /**
     * @param offsets       each payment's offset, in append order.
     * @param appendedNanos when each payment was appended.
     * @param firstMeasured the first payment whose alerts are measured.
     * @return the rule's alerts, for the summary.
     */
    FraudSummary.Rule result(final long[] offsets, final long[] appendedNanos, final int firstMeasured)
    {
        final List<FraudSummary.Alert> alerts = new ArrayList<>(alertOffsets.size());
        for (int a = 0; a < alertOffsets.size(); a++)
        {
            final long offset = alertOffsets.getLong(a);
            alerts.add(new FraudSummary.Alert(Arrays.binarySearch(offsets, offset), offset, alertWindows.getLong(a)));
        }
        return new FraudSummary.Rule(keys, windows(), latency(offsets, appendedNanos, firstMeasured), alerts);
    }

    /**
     * @param offsets       each payment's offset, in append order.
     * @param appendedNanos when each payment was appended.
     * @param firstMeasured the first payment whose alerts are measured: those raised by earlier payments
     *                      (the JIT's warm-up) are left out.
     * @return the time from the append of the payment that raised each alert to the alert, ns.
     */
    Histogram latency(final long[] offsets, final long[] appendedNanos, final int firstMeasured)
    {
        final Histogram h = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        for (int a = 0; a < alertNanos.size(); a++)
        {
            final int payment = Arrays.binarySearch(offsets, alertOffsets.getLong(a));
            if (payment >= firstMeasured)
            {
                h.recordValue(Math.min(h.getHighestTrackableValue(), Math.max(0, alertNanos.getLong(a) - appendedNanos[payment])));
            }
        }
        return h;
    }
}
