package dev.weir.engine.delivery;

/**
 * Told what a {@link ContinuousDelivery} does besides delivering: the retries while its target is unavailable,
 * the refusal that stops it, and what it left undelivered at the stop. Each method has a default that does
 * nothing (the delivery logs every one of these through SLF4J all the same).
 * <p>
 * Called on the delivery's thread ({@code weir-<pipeline>-<run>-delivery}), except {@link #onPending}, which is
 * called on the thread that stops the pipeline. It must not block for long; an exception it throws fails the run.
 */
public interface DeliveryListener
{
    /**
     * A delivery failed on an unavailable target; it is retried after {@code backoffMillis}.
     *
     * @param cause         the failure (its cause is the target's exception).
     * @param backoffMillis how long until the next attempt.
     */
    default void onRetry(final DeliveryUnavailableException cause, final long backoffMillis)
    {
    }

    /**
     * A delivery was refused or failed otherwise: continuous delivery stops here (the pipeline goes on).
     *
     * @param cause the refusal.
     */
    default void onStopped(final RuntimeException cause)
    {
    }

    /**
     * The pipeline stopped, and the last delivery did not deliver everything (called once, after the stop's grace).
     *
     * @param pending what is not delivered, and why.
     */
    default void onPending(final PendingDelivery pending)
    {
    }
}
