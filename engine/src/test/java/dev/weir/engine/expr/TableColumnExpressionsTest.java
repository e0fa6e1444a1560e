package dev.weir.engine.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.Test;

/**
 * Expressions over joined tables' columns ({@code TABLE.COLUMN}): parsing, messages and rendering, and string
 * columns compared across dictionaries against a model that compares the texts.
 */
class TableColumnExpressionsTest
{
    static final ExpressionColumns COLUMNS = ExpressionColumns.of(ExpressionsParseTest.SCHEMA)
        .join("cards", JournalSchema.parse("card:string,home:string,limit:decimal(2),segment:string"))
        .join("fx", JournalSchema.parse("ccy:string,rate:decimal(6)"));
    static final int CARD = 0;
    static final int CHANNEL = 1;
    static final int COUNTRY = 2;
    static final int AMOUNT = 3;
    static final int HOME = 7;
    static final int LIMIT = 8;
    static final int SEGMENT = 9;
    static final int RATE = 11;

    private final TestIds ids = new TestIds();

    private String filter(final String text)
    {
        final String normalised = Expressions.filter(text, COLUMNS, ids).toString();
        assertEquals(normalised, Expressions.filter(normalised, COLUMNS, ids).toString(), "the normalised text parses to itself");
        return normalised;
    }

    @Test
    void columnsAreTheEventsThenEachTablesQualified()
    {
        assertEquals(12, COLUMNS.size());
        assertEquals(6, COLUMNS.eventColumns());
        assertEquals("country", COLUMNS.name(COUNTRY));
        assertEquals("cards.home", COLUMNS.name(HOME));
        assertEquals(HOME, COLUMNS.indexOf("cards.home"));
        assertEquals(RATE, COLUMNS.indexOf("fx.rate"));
        assertEquals(-1, COLUMNS.indexOf("home"));
        assertEquals("home", COLUMNS.column(HOME).name());
        assertEquals(6, COLUMNS.column(RATE).scale());
        assertThrows(IllegalArgumentException.class, () -> COLUMNS.join("fx", JournalSchema.parse("ccy:string")));
    }

    @Test
    void parsesQualifiedNames()
    {
        assertEquals("country != cards.home", filter("country!=cards.home"));
        assertEquals("cards.home = country", filter("cards.home == country"));
        assertEquals("cards.limit < amount", filter("cards.limit<amount"));
        assertEquals("cards.limit >= 5000.00", filter("cards.limit >= 5000"));
        assertEquals("cards.segment in ('gold', 'silver') and channel != card", filter("cards.segment IN ('gold','silver') and channel != card"));
        assertEquals("amount * fx.rate", Expressions.value("amount*fx.rate", COLUMNS).toString());
        assertEquals(8, Expressions.value("amount * fx.rate", COLUMNS).scale());
        assertEquals(6, Expressions.value("fx.rate - 1", COLUMNS).scale());
    }

    @Test
    void reportsErrorsNamingQualifiedColumns()
    {
        assertError("cards.hom = 'x'", 0, "unknown column 'cards.hom': expected one of event_id, event_time, card, channel, country, amount, "
            + "fee, qty, cards.card, cards.home, cards.limit, cards.segment, fx.ccy, fx.rate");
        assertError("home = 'x'", 0, "unknown column 'home'");
        assertError("qty > 1 and nope.rate > 1", 12, "unknown column 'nope.rate'");
        assertError("cards.home < country", 11, "string column 'cards.home' compares only with = and != or in (...), not <");
        assertError("cards.home = amount", 13, "type mismatch: 'cards.home' is a string column, compared with a number");
        assertError("cards.limit = country", 0, "type mismatch: 'country' is a string column, compared with a number");
        assertError("cards.home in (1)", 15, "type mismatch: a number in the list of string column 'cards.home'");
        assertError("cards. = 'x'", 0, "unknown column 'cards'");
        assertThrows(ExpressionException.class, () -> Expressions.value("cards.home", COLUMNS));
    }

    @Test
    void plainSchemasStillRefuseComparingStringColumns()
    {
        final ExpressionException ex = assertThrows(ExpressionException.class,
            () -> Expressions.filter("card = channel", ExpressionsParseTest.SCHEMA, ids));
        assertTrue(ex.getMessage().endsWith("cannot compare string columns 'card' and 'channel': compare each with a string literal"),
            ex.getMessage());
    }

    @Test
    void readsTableColumnsOfTheView()
    {
        final TestEvent event = new TestEvent(COLUMNS.size());
        event.longs[AMOUNT] = 12_50; // 12.50
        event.longs[RATE] = 1_100000; // 1.1
        event.longs[LIMIT] = 10_00;
        assertEquals(13_750000_00L, Expressions.value("amount * fx.rate", COLUMNS).value(event));
        assertTrue(Expressions.filter("amount > cards.limit", COLUMNS, ids).test(event));
        assertFalse(Expressions.filter("amount * fx.rate < cards.limit + 3.75", COLUMNS, ids).test(event));
        event.ids[SEGMENT] = ids.intern(SEGMENT, "gold");
        assertTrue(Expressions.filter("cards.segment = 'gold'", COLUMNS, ids).test(event));
        assertTrue(Expressions.filter("cards.segment in ('silver', 'gold')", COLUMNS, ids).test(event));
        assertFalse(Expressions.filter("cards.segment = 'silver'", COLUMNS, ids).test(event));
    }

    /** A text first compared while the right column has never held it, then defined there: it matches from then on. */
    @Test
    void aTextDefinedLaterInTheOtherColumnMatchesOnceDefined()
    {
        final EventFilter same = Expressions.filter("country = cards.home", COLUMNS, ids);
        final EventFilter differ = Expressions.filter("country != cards.home", COLUMNS, ids);
        final TestEvent event = new TestEvent(COLUMNS.size());
        ids.intern(HOME, "US");
        ids.intern(HOME, "DE");
        event.ids[COUNTRY] = ids.intern(COUNTRY, "FR"); // id 0
        event.ids[HOME] = ids.intern(HOME, "DE"); // id 1
        assertFalse(same.test(event));
        assertTrue(differ.test(event));
        final int lookups = ids.lookups;
        event.ids[HOME] = 0; // US: an id below the count at the miss: known not to be FR, no lookup
        assertFalse(same.test(event));
        assertEquals(lookups, ids.lookups, "a lower id is known to have another text");
        event.ids[HOME] = ids.intern(HOME, "FR"); // id 2, defined after FR was first compared
        assertTrue(same.test(event));
        assertFalse(differ.test(event));
    }

    @Test
    void twoEventStringColumnsCompareByText()
    {
        final EventFilter filter = Expressions.filter("card = channel", COLUMNS, ids);
        final TestEvent event = new TestEvent(COLUMNS.size());
        ids.intern(CHANNEL, "pos");
        event.ids[CARD] = ids.intern(CARD, "online"); // id 0 in card, 1 in channel
        event.ids[CHANNEL] = ids.intern(CHANNEL, "online");
        assertTrue(filter.test(event));
        event.ids[CHANNEL] = 0;
        assertFalse(filter.test(event));
    }

    /**
     * Seeded streams of texts in two columns with separate dictionaries, each text defined in a column when an event
     * first carries it there (often after it was first compared): the filters agree with comparing the texts.
     */
    @Test
    void crossDictionaryComparisonsAgreeWithComparingTexts()
    {
        for (long seed = 1; seed <= 20; seed++)
        {
            final Random random = new Random(seed);
            final TestIds strings = new TestIds();
            final EventFilter same = Expressions.filter("cards.home = country", COLUMNS, strings);
            final EventFilter differ = Expressions.filter("country != cards.home or channel = cards.segment", COLUMNS, strings);
            final TestEvent event = new TestEvent(COLUMNS.size());
            final int texts = 2 + random.nextInt(30);
            for (int i = 0; i < 2_000; i++)
            {
                final String country = "t" + random.nextInt(texts);
                final String home = "t" + random.nextInt(texts);
                final String channel = "t" + random.nextInt(texts);
                final String segment = random.nextBoolean() ? channel : "t" + random.nextInt(texts);
                event.ids[COUNTRY] = strings.intern(COUNTRY, country);
                event.ids[HOME] = strings.intern(HOME, home);
                event.ids[CHANNEL] = strings.intern(CHANNEL, channel);
                event.ids[SEGMENT] = strings.intern(SEGMENT, segment);
                final String what = "seed " + seed + " event " + i + ": " + country + "/" + home + " " + channel + "/" + segment;
                assertEquals(home.equals(country), same.test(event), what);
                assertEquals(!country.equals(home) || channel.equals(segment), differ.test(event), what);
            }
        }
    }

    private void assertError(final String text, final int position, final String problem)
    {
        final ExpressionException ex = assertThrows(ExpressionException.class, () -> Expressions.filter(text, COLUMNS, ids), text);
        assertTrue(ex.getMessage().contains(": " + problem), text + " -> " + ex.getMessage());
        assertEquals(position, ex.position(), text + " -> " + ex.getMessage());
        assertFalse(ex.getMessage().contains("\n"));
    }
}
