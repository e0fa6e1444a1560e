package dev.weir.examples.fraud;

import dev.weir.engine.emit.WindowResult;

/**
 * The places rule's report: spend per merchant and country per minute, summed over every minute fired.
 * Recorded on the pipeline thread of one run at a time (the follower, then the bounded run that fires what
 * it left open); read after both have stopped.
 */
final class PlaceTotals
{
    private long windows;
    private long cents;
    private long payments;

    /**
     * @param r a (merchant, country, minute) result.
     */
    void onResult(final WindowResult r)
    {
        windows++;
        cents += r.sum();
        payments += r.count();
    }

    /** @return the (merchant, country, minute) windows fired. */
    long windows()
    {
        return windows;
    }

    /** @return their spend, in cents. */
    long cents()
    {
        return cents;
    }

    /** @return the payments they counted. */
    long payments()
    {
        return payments;
    }
}
