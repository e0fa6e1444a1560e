package dev.weir.engine.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.Test;

/**
 * The expression parser: good expressions and their normalised text (which parses back to itself), and
 * bad ones with their one-line error and its 0-based position.
 */
class ExpressionsParseTest
{
    static final JournalSchema SCHEMA =
        JournalSchema.parse("card:string,channel:string,country:string,amount:decimal(2),fee:decimal(3),qty:long");

    private final TestIds ids = new TestIds();

    private String filter(final String text)
    {
        final String normalised = Expressions.filter(text, SCHEMA, ids).toString();
        assertEquals(normalised, Expressions.filter(normalised, SCHEMA, ids).toString(), "the normalised text parses to itself");
        return normalised;
    }

    private String value(final String text)
    {
        final String normalised = Expressions.value(text, SCHEMA).toString();
        assertEquals(normalised, Expressions.value(normalised, SCHEMA).toString(), "the normalised text parses to itself");
        return normalised;
    }

    @Test
    void normalisesFilters()
    {
        assertEquals("channel = 'online' and country in ('FR', 'DE') and amount > 12.50",
            filter("channel='online' AND country IN ('FR','DE') and amount>12.5"));
        assertEquals("(qty = 1 or qty = 2) and amount < 3.00", filter("(qty=1 Or qty=2) and amount<3"));
        assertEquals("qty = 1 or qty = 2 and amount < 3.00", filter("qty=1 or (qty=2 and amount<3)"));
        assertEquals("qty = 1 or qty = 2 or qty = 3", filter("qty = 1 or (qty = 2 or qty = 3)"));
        assertEquals("not (amount > 1.00 or qty = 2)", filter("NOT (amount > 1 or qty = 2)"));
        assertEquals("not amount > 1.00", filter("not(amount > 1)"));
        assertEquals("not not qty = 1", filter("not not qty = 1"));
        assertEquals("amount > 100.00", filter("100 < amount"));
        assertEquals("amount <= 0.50", filter("0.5 >= amount"));
        assertEquals("card = 'O''Brien'", filter("card = 'O''Brien'"));
        assertEquals("card != ''", filter("card!=''"));
        assertEquals("qty in (1, -2, 3)", filter("qty in(1,- 2,3)"));
        assertEquals("amount not in (1.00, 2.50)", filter("amount NOT IN (1, 2.5)"));
        assertEquals("card not in ('a b', 'c')", filter("card not in ('a b' , 'c')"));
        assertEquals("qty >= -5", filter("  qty>=  - 5 "));
        assertEquals("amount = fee", filter("amount == fee"));
        assertEquals("amount - fee > 100.000", filter("amount - fee > 100"));
        assertEquals("amount * qty >= fee + 1", filter("(amount * qty) >= (fee + 1)"));
        assertEquals("event_time > 1000 and event_id != 3", filter("event_time > 1000 and event_id != 3"));
        assertEquals("1 < 2", filter("1 < 2"));
    }

    @Test
    void normalisesValues()
    {
        assertEquals("amount", value("amount"));
        assertEquals("amount - fee", value(" amount-fee "));
        assertEquals("(amount - fee) * qty", value("(amount - fee) * qty"));
        assertEquals("amount - (fee - qty)", value("amount - (fee - qty)"));
        assertEquals("amount + fee - qty", value("amount + (fee - qty)"));
        assertEquals("amount * 2 + 1", value("(amount * 2) + 1"));
        assertEquals("amount * (2 + 1)", value("amount * (2 + 1)"));
        assertEquals("-amount", value("-amount"));
        assertEquals("-(amount + 1)", value("-(amount + 1)"));
        assertEquals("amount - -5", value("amount - -5"));
        assertEquals("1.50", value("1.50"));
        assertEquals("2 * 3", value("2*3"));
    }

    @Test
    void scalesFollowTheOperators()
    {
        assertEquals(2, Expressions.value("amount", SCHEMA).scale());
        assertEquals(0, Expressions.value("qty", SCHEMA).scale());
        assertEquals(3, Expressions.value("amount - fee", SCHEMA).scale());
        assertEquals(5, Expressions.value("amount * fee", SCHEMA).scale());
        assertEquals(2, Expressions.value("amount * qty + 1", SCHEMA).scale());
        assertEquals(4, Expressions.value("amount + 1.0000", SCHEMA).scale());
        assertEquals(0, Expressions.value("event_time - event_id", SCHEMA).scale());
        assertEquals(6, Expressions.value("2 * 3", SCHEMA).value(null));
        assertEquals(18, Expressions.value("amount * fee * fee * fee * fee * 0.0000", SCHEMA).scale());
    }

    @Test
    void keywordsAnyCaseColumnsExact()
    {
        assertTrue(Expressions.filter("NoT qty In (1)", SCHEMA, ids).test(new TestEvent(6)));
        assertError("Qty = 1", 0, "unknown column 'Qty'");
    }

    @Test
    void reportsErrorsWithTheirPosition()
    {
        assertError("amount > ", 9, "expected a column, a number, a string or '('");
        assertError("", 0, "expected a column, a number, a string or '('");
        assertError("amout > 1", 0, "unknown column 'amout': expected one of event_id, event_time, card, channel, country, amount, fee, qty");
        assertError("qty > 1 and amout > 1", 12, "unknown column 'amout'");
        assertError("card < 'x'", 5, "string column 'card' compares only with = and != or in (...), not <");
        assertError("amount = 'x'", 9, "type mismatch: a string compared with a number");
        assertError("'x' = amount", 6, "type mismatch: a string compared with a number");
        assertError("card = 5", 7, "type mismatch: 'card' is a string column, compared with a number");
        assertError("card = channel", 7, "cannot compare string columns 'card' and 'channel'");
        assertError("'a' = 'a'", 6, "a string literal compares only with a string column");
        assertError("amount > 12.505", 9, "'12.505' has more than 2 decimals");
        assertError("qty = 1.5", 6, "'1.5' has more than 0 decimals");
        assertError("qty in (1, 2.5)", 11, "'2.5' has more than 0 decimals");
        assertError("qty = 99999999999999999999", 6, "'99999999999999999999' is out of range");
        assertError("amount > 99999999999999999", 9, "'99999999999999999' is out of range at scale 2");
        assertError("amount > 1 and", 14, "expected a column, a number, a string or '('");
        assertError("(amount > 1", 11, "expected ')', 'and' or 'or'");
        assertError("(amount - 1 > 1", 15, "expected ')', 'and' or 'or'");
        assertError("amount > 1 amount", 11, "expected 'and', 'or' or the end");
        assertError("amount > 1 )", 11, "expected 'and', 'or' or the end");
        assertError("card = 'x", 7, "the string has no closing quote");
        assertError("amount", 0, "expected a condition (a comparison or 'in'), found a number");
        assertError("card", 0, "expected a condition (a comparison or 'in'), found string column 'card'");
        assertError("amount > 1 and qty", 15, "expected a condition (a comparison or 'in'), found a number");
        assertError("not qty", 4, "expected a condition");
        assertError("qty not 5", 4, "expected 'in' after 'not'");
        assertError("qty ! 3", 4, "expected '!='");
        assertError("country in (1)", 12, "type mismatch: a number in the list of string column 'country'");
        assertError("qty in ('a')", 8, "type mismatch: a string in the list of a number");
        assertError("qty in ()", 8, "expected a number literal");
        assertError("card in ()", 9, "expected a string literal");
        assertError("qty in (1 2)", 10, "expected ',' or ')'");
        assertError("qty in 1", 7, "expected '(' after 'in'");
        assertError("'a' in ('a')", 0, "expected a column or a number before 'in'");
        assertError("qty = 1.", 8, "expected digits after '.'");
        assertError("12abc > 1", 2, "expected an operator after the number");
        assertError("(qty = 1) = 2", 1, "expected a value to compare, found a condition");
        assertError("(qty = 1) + 2", 1, "expected a number, found a condition");
        assertError("card + 1 > 2", 0, "type mismatch: 'card' is a string column, expected a number");
        assertError("qty > 1 # 2", 8, "expected 'and', 'or' or the end");
        final String tooFine = "amount * fee * fee * fee * fee * fee * fee > 1";
        assertError(tooFine, tooFine.lastIndexOf('*'), "the product has 20 decimals, more than 18");
    }

    @Test
    void reportsValueErrorsWithTheirPosition()
    {
        assertValueError("card", 0, "type mismatch: 'card' is a string column, expected a number");
        assertValueError("amount > 1", 7, "expected '+', '-', '*' or the end");
        assertValueError("amount + 'x'", 9, "type mismatch: a string, expected a number");
        assertValueError("amount -", 8, "expected a column, a number, a string or '('");
        assertValueError("(card = 'x')", 1, "expected a number, found a condition");
        assertValueError("nope", 0, "unknown column 'nope'");
    }

    /** A part made of literals only that leaves the long range would wrap on every event: it is refused instead. */
    @Test
    void aConstantOutOfTheLongRangeIsAnError()
    {
        assertValueError("qty + (9223372036854775807 + 1)", 7, "'9223372036854775807 + 1' is out of range");
        assertValueError("amount * (92233720368547758.07 * 2)", 10, "'92233720368547758.07 * 2' is out of range at scale 2");
        assertValueError("amount + 92233720368547759", 9, "'92233720368547759' is out of range at scale 2");
        assertValueError("qty - -(-9223372036854775808)", 6, "'--9223372036854775808' is out of range");
        assertError("qty * 2 > 3037000500 * 3037000500", 10, "'3037000500 * 3037000500' is out of range");
        assertEquals(Long.MAX_VALUE, Expressions.value("9223372036854775806 + 1", SCHEMA).value(null), "in range: folded");
        assertEquals(922337203685477580L, Expressions.value("qty + 9223372036854775.80", SCHEMA).value(new TestEvent(6)), "in range");
    }

    @Test
    void theMessageIsOneLineWithTheTextAndAOneBasedPosition()
    {
        final ExpressionException ex = assertThrows(ExpressionException.class, () -> Expressions.filter("qty >", SCHEMA, ids));
        assertEquals("expression 'qty >' at position 6: expected a column, a number, a string or '('", ex.getMessage());
        assertEquals(5, ex.position());
        assertFalse(ex.getMessage().contains("\n"));
        assertTrue(ex instanceof IllegalArgumentException);
    }

    private void assertError(final String text, final int position, final String problem)
    {
        final ExpressionException ex = assertThrows(ExpressionException.class, () -> Expressions.filter(text, SCHEMA, ids), text);
        assertTrue(ex.getMessage().contains(": " + problem), text + " -> " + ex.getMessage());
        assertEquals(position, ex.position(), text + " -> " + ex.getMessage());
        assertFalse(ex.getMessage().contains("\n"));
    }

    private static void assertValueError(final String text, final int position, final String problem)
    {
        final ExpressionException ex = assertThrows(ExpressionException.class, () -> Expressions.value(text, SCHEMA), text);
        assertTrue(ex.getMessage().contains(": " + problem), text + " -> " + ex.getMessage());
        assertEquals(position, ex.position(), text + " -> " + ex.getMessage());
    }
}
