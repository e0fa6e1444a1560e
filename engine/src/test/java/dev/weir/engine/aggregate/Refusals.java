package dev.weir.engine.aggregate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.function.Executable;

/** Asserts a list of named aggregates is refused as users see it: one line, quoting the list, at a position. */
final class Refusals
{
    private Refusals()
    {
    }

    /**
     * @param list     the list.
     * @param reading  reads (or binds) the list.
     * @param position the 0-based position the refusal names.
     * @param message  a part of the message (the whole message if it does not contain it).
     */
    static void assertRefused(final String list, final Executable reading, final int position, final String message)
    {
        final AggregateSyntaxException ex = assertThrows(AggregateSyntaxException.class, reading);
        assertEquals(position, ex.position(), ex.getMessage());
        if (!ex.getMessage().contains(message))
        {
            assertEquals(message, ex.getMessage(), "the message");
        }
        assertEquals(0, ex.getMessage().indexOf("aggregates '" + list + "': "), "quotes the list: " + ex.getMessage());
        assertEquals(-1, ex.getMessage().indexOf('\n'), "one line");
    }
}
