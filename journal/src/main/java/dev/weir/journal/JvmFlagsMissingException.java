package dev.weir.journal;

import java.util.List;

import dev.weir.journal.schema.WeirException;

/**
 * Thrown before Weir opens a journal or builds a pipeline in a JVM started without flags Chronicle Queue needs
 * ({@link JvmFlags#REQUIRED}). Nothing has been written to disk when it is thrown. The message names the
 * missing flags and the line to add for a {@code java} command, Maven Surefire and Gradle. Immutable.
 */
public final class JvmFlagsMissingException extends WeirException
{
    private static final long serialVersionUID = 1L;

    private final List<String> missing;

    /**
     * @param missing the flags this JVM lacks, in {@link JvmFlags#REQUIRED}'s order; not empty.
     */
    public JvmFlagsMissingException(final List<String> missing)
    {
        super(JvmFlags.explain(missing));
        assert !missing.isEmpty();
        this.missing = List.copyOf(missing);
    }

    /**
     * @return the flags this JVM lacks, in {@link JvmFlags#REQUIRED}'s order.
     */
    public List<String> missing()
    {
        return missing;
    }
}
