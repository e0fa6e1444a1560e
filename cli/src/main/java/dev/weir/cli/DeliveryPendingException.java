package dev.weir.cli;

/**
 * Results were not delivered to PostgreSQL because the database is down or hangs (past the delivery's
 * timeouts); everything else the run does completed, the output journal keeps the results, and the next
 * run with {@code --jdbc-url} delivers them. Exit code {@link WeirCommand#DELIVERY_PENDING}. Its message
 * says how many results are pending and why; {@link #reported()} tells whether it was printed already
 * (a following run prints it as it stops, before the JVM may halt). Immutable.
 */
final class DeliveryPendingException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final boolean reported;

    DeliveryPendingException(final String message, final Throwable cause, final boolean reported)
    {
        super(message, cause);
        this.reported = reported;
    }

    /**
     * @return true if the message was printed already.
     */
    boolean reported()
    {
        return reported;
    }
}
