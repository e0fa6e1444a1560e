package dev.weir.engine.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.Test;

/**
 * A string literal the journal has never held matches nothing until it appears, then matches; while
 * unknown it looks itself up again only when an event carries a new highest id of its column.
 */
class ExpressionStringLiteralTest
{
    private static final JournalSchema SCHEMA = JournalSchema.parse("country:string,amount:long");
    private static final int COUNTRY = 0;

    private final TestIds ids = new TestIds();
    private final TestEvent event = new TestEvent(2);

    private boolean test(final EventFilter filter, final String country)
    {
        event.ids[COUNTRY] = ids.intern(COUNTRY, country);
        return filter.test(event);
    }

    @Test
    void anUnknownLiteralMatchesOnceItAppears()
    {
        ids.intern(COUNTRY, "FR");
        ids.intern(COUNTRY, "DE");
        final EventFilter equal = Expressions.filter("country = 'IT'", SCHEMA, ids);
        final EventFilter differ = Expressions.filter("country != 'IT'", SCHEMA, ids);
        final EventFilter in = Expressions.filter("country in ('IT', 'DE')", SCHEMA, ids);
        assertFalse(test(equal, "FR"));
        assertFalse(test(equal, "DE"));
        assertTrue(test(differ, "DE"));
        assertTrue(test(in, "DE"));
        assertFalse(test(in, "FR"));
        assertFalse(test(equal, "ES")); // a new string, not the literal
        assertTrue(test(equal, "IT")); // appears: id 3
        assertFalse(test(differ, "IT"));
        assertTrue(test(in, "IT"));
        assertFalse(test(equal, "ES"));
        assertTrue(test(equal, "IT"));
    }

    @Test
    void steadyStateDoesNoLookups()
    {
        for (final String c : new String[] {"FR", "DE", "US"})
        {
            ids.intern(COUNTRY, c);
        }
        final EventFilter filter = Expressions.filter("country = 'IT' or country = 'FR'", SCHEMA, ids);
        assertEquals(2, ids.lookups, "each literal resolved once when compiled");
        assertFalse(test(filter, "US")); // id 2, at or above the last asking (none yet): asks again
        assertEquals(3, ids.lookups);
        for (int i = 0; i < 1_000; i++)
        {
            assertFalse(test(filter, i % 2 == 0 ? "DE" : "US"));
            assertTrue(test(filter, "FR"));
        }
        assertEquals(3, ids.lookups, "ids already seen are known not to be 'IT'");
        assertFalse(test(filter, "GB")); // a new id: asks once
        assertEquals(4, ids.lookups);
        assertTrue(test(filter, "IT"));
        assertEquals(5, ids.lookups);
        for (int i = 0; i < 1_000; i++)
        {
            assertTrue(test(filter, "IT"));
            assertFalse(test(filter, "GB"));
        }
        assertEquals(5, ids.lookups, "a resolved literal never asks again");
    }
}
