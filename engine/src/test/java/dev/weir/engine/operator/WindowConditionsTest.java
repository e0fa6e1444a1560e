package dev.weir.engine.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import dev.weir.engine.aggregate.Average;
import dev.weir.engine.aggregate.BoundAggregates;
import dev.weir.engine.aggregate.NamedAggregates;
import dev.weir.engine.expr.ExpressionColumns;
import dev.weir.engine.state.WindowSlots;
import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.Test;

/**
 * The early condition's parser: grammar, precedence, the value's unit, the normalised name a checkpoint
 * records, and one-line errors with a position.
 */
class WindowConditionsTest
{
    private final WindowSlots slots = new WindowSlots(16, 0, List.of(new Average()));
    private final WindowView view = new WindowView(slots);

    /** A window of the given values, viewed. */
    private WindowView window(final long... values)
    {
        final int slot = slots.allocate(1, 0, 10);
        for (final long v : values)
        {
            slots.add(slot, v);
        }
        return view.wrap(slot);
    }

    @Test
    void comparesEachField()
    {
        final WindowView w = window(10, 20, 30); // count 3, sum 60, min 10, max 30, average 20
        assertTrue(WindowConditions.parse("count=3", 0, 1).test(w));
        assertTrue(WindowConditions.parse("count>=3", 0, 1).test(w));
        assertFalse(WindowConditions.parse("count>3", 0, 1).test(w));
        assertTrue(WindowConditions.parse("sum<61", 0, 1).test(w));
        assertFalse(WindowConditions.parse("sum<60", 0, 1).test(w));
        assertTrue(WindowConditions.parse("sum<=60", 0, 1).test(w));
        assertTrue(WindowConditions.parse("min!=11", 0, 1).test(w));
        assertFalse(WindowConditions.parse("max>30", 0, 1).test(w));
        assertTrue(WindowConditions.parse("aggregate=20", 0, 1).test(w));
        assertTrue(WindowConditions.parse("aggregate1>=20", 0, 1).test(w));
        assertTrue(WindowConditions.parse("min>-5", 0, 1).test(w));
    }

    @Test
    void namedAggregatesAreReadByNameAtTheirScale()
    {
        final BoundAggregates named = NamedAggregates.parse("big_spend=sum(amount) filter (where amount > 100.00),n=count(),sum=max(amount)")
            .bind(ExpressionColumns.of(JournalSchema.parse("card:string,amount:decimal(2),limit:decimal(3)")));
        assertEquals("big_spend>=100.50 and n>1", WindowConditions.parse("BIG_SPEND >= 100.5 and n > 1", named, null).name());
        assertEquals("sum<limit or count=2", WindowConditions.parse("sum < limit or count = 2", named,
            ExpressionColumns.of(JournalSchema.parse("card:string,amount:decimal(2),limit:decimal(3)"))).name(), "a name before count and sum");
        final ConditionSyntaxException tooFine = assertThrows(ConditionSyntaxException.class,
            () -> WindowConditions.parse("n>1 and big_spend>1.001", named, null));
        assertEquals(19, tooFine.position());
        final ConditionSyntaxException min = assertThrows(ConditionSyntaxException.class, () -> WindowConditions.parse("n>1 and min>1", named, null));
        assertEquals("early condition 'n>1 and min>1' at position 9: no min with --aggregates: name one, e.g. total=sum(amount)", min.getMessage());
        final ConditionSyntaxException unknown = assertThrows(ConditionSyntaxException.class, () -> WindowConditions.parse("spend>1", named, null));
        assertEquals("early condition 'spend>1' at position 1: unknown aggregate 'spend': expected count or one of big_spend, n, sum",
            unknown.getMessage());
        assertThrows(ConditionSyntaxException.class, () -> WindowConditions.parse("aggregate2>1", named, null));
    }

    @Test
    void andBindsTighterThanOrAndParenthesesGroup()
    {
        final WindowView w = window(10, 20, 30);
        // false and false or true: (false and false) or true
        assertTrue(WindowConditions.parse("count>5 and sum>0 or max=30", 0, 0).test(w));
        assertFalse(WindowConditions.parse("count>5 and (sum>0 or max=30)", 0, 0).test(w));
        assertTrue(WindowConditions.parse("  ( count = 3 )AND max>=30  ", 0, 0).test(w));
    }

    @Test
    void numbersComparedWithSumMinAndMaxAreInTheValuesUnit()
    {
        final WindowView w = window(500_000); // 5000.00 on a decimal(2) column
        assertTrue(WindowConditions.parse("sum>=5000.00", 2, 0).test(w));
        assertTrue(WindowConditions.parse("sum>=5000", 2, 0).test(w));
        assertTrue(WindowConditions.parse("sum>=5000.0", 2, 0).test(w));
        assertFalse(WindowConditions.parse("sum>5000.00", 2, 0).test(w));
        assertTrue(WindowConditions.parse("sum>4999.99", 2, 0).test(w));
        assertEquals("sum>=5000.00", WindowConditions.parse("sum >= 5000", 2, 0).name());
        // count is a number of events, whatever the value's scale
        assertTrue(WindowConditions.parse("count=1", 2, 0).test(w));
        final ConditionSyntaxException tooFine = assertThrows(ConditionSyntaxException.class, () -> WindowConditions.parse("sum>1.001", 2, 0));
        assertEquals(5, tooFine.position());
        assertThrows(ConditionSyntaxException.class, () -> WindowConditions.parse("count>1.5", 2, 0));
    }

    @Test
    void theNameIsTheNormalisedText()
    {
        assertEquals("count>8", WindowConditions.parse(" COUNT >8 ", 0, 0).name());
        assertEquals("sum>=1 and max<2 or min=3", WindowConditions.parse("sum>=1 AND max<2 Or min==3", 0, 0).name());
        assertEquals("(sum>=1 or max<2) and min!=3", WindowConditions.parse("(sum>=1 or max<2) and min!=3", 0, 0).name());
        assertEquals("sum>=1 or max<2", WindowConditions.parse("((sum>=1) or (max<2))", 0, 0).name());
        assertEquals("aggregate2>5", WindowConditions.parse("aggregate2>5", 0, 2).name());
        assertEquals("aggregate>5", WindowConditions.parse("aggregate1>5", 0, 2).name());
    }

    @Test
    void anErrorSaysWhere()
    {
        assertError("summ>1", 1, "unknown field 'summ'");
        assertError("sum>", 5, "expected a number");
        assertError("sum 5", 5, "expected an operator");
        assertError("sum>5 and", 10, "expected count");
        assertError("sum>5 count>1", 7, "expected 'and', 'or' or the end");
        assertError("(sum>5", 7, "expected ')'");
        assertError("sum>5.", 7, "expected digits after '.'");
        assertError("aggregate>1", 1, "no user aggregation");
        assertError("aggregate3>1", 1, "has 2 aggregations");
        assertError("", 1, "expected count");
        assertError("sum>99999999999999999999", 5, "in range");
    }

    /** Event columns card, amount (decimal 2), qty; table cards: card, home, limit (decimal 2), cap (decimal 4). */
    private static final ExpressionColumns COLUMNS = ExpressionColumns.of(JournalSchema.parse("card:string,amount:decimal(2),qty:long"))
        .join("cards", JournalSchema.parse("card:string,home:string,limit:decimal(2),cap:decimal(4)"));

    /** A comparison names a column of the event being added: the view reads it from the event's slot columns. */
    @Test
    void comparesAFieldWithAColumnOfTheEventBeingAdded()
    {
        final WindowView w = window(500_000); // sum 5000.00 on a decimal(2) value
        final long[] event = new long[COLUMNS.size()];
        w.event(event);
        final WindowCondition overLimit = WindowConditions.parse("sum > cards.limit", 2, 1, COLUMNS);
        assertEquals("sum>cards.limit", overLimit.name());
        assertEquals(List.of(5), java.util.Arrays.stream(overLimit.columns()).boxed().toList());
        event[5] = 4_999_99;
        assertTrue(overLimit.test(w));
        event[5] = 5_000_00;
        assertFalse(overLimit.test(w));
        // scales differ: sum at 2, cards.cap at 4, compared exactly
        final WindowCondition underCap = WindowConditions.parse("sum<=cards.cap", 2, 1, COLUMNS);
        event[6] = 5000_0000;
        assertTrue(underCap.test(w));
        event[6] = 4999_9999;
        assertFalse(underCap.test(w));
        // count is whole, qty a long event column; a mix of columns and numbers, columns ascending without repeats
        final WindowCondition mixed = WindowConditions.parse("count>=qty and sum>cards.cap or max>1 and min<cards.cap", 2, 1, COLUMNS);
        assertEquals(List.of(2, 6), java.util.Arrays.stream(mixed.columns()).boxed().toList());
        assertEquals("count>=qty and sum>cards.cap or max>1.00 and min<cards.cap", mixed.name());
        event[2] = 1;
        event[6] = 4999_9999;
        assertTrue(mixed.test(w));
        event[2] = 2;
        assertFalse(mixed.test(w));
        assertEquals(0, WindowConditions.parse("sum>1", 2, 1, COLUMNS).columns().length, "numbers only: no columns");
    }

    @Test
    void aColumnMustBeANumericColumnOfThePipeline()
    {
        assertColumnError("sum>cards.lim", 5, "unknown column 'cards.lim': expected a number or one of amount, qty, cards.limit, cards.cap");
        assertColumnError("sum>cards.home", 5, "'cards.home' is a string column: expected a number or one of");
        assertColumnError("count<Qty", 7, "unknown column 'Qty'");
        assertError("sum>limit", 5, "expected a number"); // without the pipeline's columns, numbers only (as before)
    }

    private static void assertColumnError(final String text, final int position, final String problem)
    {
        final ConditionSyntaxException e = assertThrows(ConditionSyntaxException.class, () -> WindowConditions.parse(text, 2, 1, COLUMNS));
        assertEquals(position, e.position(), e.getMessage());
        assertTrue(e.getMessage().contains(problem), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line");
    }

    private static void assertError(final String text, final int position, final String problem)
    {
        final ConditionSyntaxException e = assertThrows(ConditionSyntaxException.class, () -> WindowConditions.parse(text, 0, 2 - (text.startsWith("aggregate>") ? 2 : 0)));
        assertEquals(position, e.position(), e.getMessage());
        assertTrue(e.getMessage().contains(problem), e.getMessage());
        assertTrue(e.getMessage().contains("at position " + position), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line");
    }
}
