package dev.weir.engine.delivery;

/**
 * What a continuous delivery left undelivered when it stopped: its last delivery failed, or did not end within
 * the stop's grace. The output journal keeps those results, so the next delivery delivers them. Immutable.
 *
 * @param results   results not delivered.
 * @param atMost    true if the target was never reached, so {@code results} counts every result (some may be
 *                  delivered already).
 * @param reason    why, in words: the target's message, or that it did not answer within the grace.
 * @param cause     the last failure, or null if the last delivery hung.
 * @param abandoned true if the delivering thread is still blocked: the sink must not be closed under it (the
 *                  JVM's exit ends it).
 */
public record PendingDelivery(long results, boolean atMost, String reason, Throwable cause, boolean abandoned)
{
}
