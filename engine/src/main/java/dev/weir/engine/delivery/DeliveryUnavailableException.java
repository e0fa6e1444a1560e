package dev.weir.engine.delivery;

import dev.weir.journal.schema.WeirException;

/**
 * An {@link OutputSink}'s target cannot be reached now, or failed (down, hanging past its timeouts): nothing is
 * lost, the output journal keeps every output, and the next delivery retries. Its cause is the target's own
 * exception. Immutable.
 */
public final class DeliveryUnavailableException extends WeirException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what could not be delivered, and where.
     * @param cause   the target's exception.
     */
    public DeliveryUnavailableException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
