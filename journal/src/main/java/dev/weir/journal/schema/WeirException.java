package dev.weir.journal.schema;

/**
 * The base of the exceptions Weir's API throws when Weir refuses or fails: a journal it will not use, JVM flags
 * it is missing, a checkpoint of another configuration, a pipeline run that stopped, a recovery that did not
 * reproduce its outputs, a sink that refused to write. A service can catch this one type around Weir's calls.
 * <p>
 * A bad argument is reported as the JDK reports it, with {@link IllegalArgumentException} or
 * {@link IllegalStateException}; the two whose message points at a position in the caller's text (an
 * expression's and an early condition's syntax errors) stay subtypes of {@link IllegalArgumentException} so
 * that code catching that keeps working. Unchecked. Instances are immutable once thrown.
 */
public abstract class WeirException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what was refused or failed, in a sentence a person can act on.
     */
    protected WeirException(final String message)
    {
        super(message);
    }

    /**
     * @param message what was refused or failed, in a sentence a person can act on.
     * @param cause   what went wrong underneath.
     */
    protected WeirException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
