package dev.weir.cli;

import dev.weir.journal.schema.JournalSchema;

/**
 * The {@code --columns SPEC} option of {@code weir ingest}, {@code run} and {@code produce}: its text as a
 * {@link JournalSchema}. Stateless and thread-safe.
 */
final class ColumnsOption
{
    private ColumnsOption()
    {
    }

    /**
     * @param spec the text of {@code --columns}, or null.
     * @return its schema, or null if not given.
     * @throws BadInputException if it is not a schema.
     */
    static JournalSchema parse(final String spec)
    {
        if (spec == null)
        {
            return null;
        }
        try
        {
            return JournalSchema.parse(spec);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new BadInputException("--columns " + spec + ": " + ex.getMessage());
        }
    }
}
