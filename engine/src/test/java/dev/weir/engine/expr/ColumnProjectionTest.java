package dev.weir.engine.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.Test;

/**
 * A pipeline's key and value columns: checked against the schema with a message naming its columns, and
 * described in the configuration string only when they are not the default.
 */
class ColumnProjectionTest
{
    private static final JournalSchema PAYMENTS =
        JournalSchema.parse("card:string,merchant:string,country:string,amount:decimal(2),fee:long,channel:string");

    @Test
    void theDefaultAddsNothingToTheConfigurationString()
    {
        final ColumnProjection projection = ColumnProjection.of(JournalSchema.DEFAULT, "key", "value");
        assertTrue(projection.isDefault());
        assertEquals("", projection.describe());
        assertEquals(0, projection.keyColumn(0));
        assertEquals(1, projection.valueColumn());
    }

    @Test
    void anyStringColumnKeysAndAnyLongOrDecimalColumnIsTheValue()
    {
        final ColumnProjection byMerchant = ColumnProjection.of(PAYMENTS, "merchant", "amount");
        assertFalse(byMerchant.isDefault());
        assertEquals(1, byMerchant.keyColumn(0));
        assertEquals(3, byMerchant.valueColumn());
        assertEquals(2, byMerchant.valueScale());
        assertEquals(" key=merchant value=amount", byMerchant.describe());
        assertEquals(0, ColumnProjection.of(PAYMENTS, "channel", "fee").valueScale());
    }

    @Test
    void aMissingOrMistypedColumnIsRefusedNamingTheSchema()
    {
        for (final String[] wrong : new String[][] {{"key", "amount"}, {"card,total", "amount"}, {"card", "merchant"}, {"card", "total"}, {"card,", "amount"}})
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> ColumnProjection.of(PAYMENTS, wrong[0], wrong[1]));
            assertTrue(ex.getMessage().contains(PAYMENTS.toString()), ex.getMessage());
        }
        final IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> ColumnProjection.of(PAYMENTS, "card,card", "amount"));
        assertEquals("key column 'card' is named twice in 'card,card'", twice.getMessage());
    }

    /**
     * A key's tuple ids are numbered from the events alone (exports and resumed runs read them back so), so a key
     * cannot name a joined table's column yet; a value can (an expression reading the joined view).
     */
    @Test
    void aKeyCannotNameATableColumnButAValueCan()
    {
        final ExpressionColumns joined = ExpressionColumns.of(PAYMENTS).join("cards", JournalSchema.parse("card:string,segment:string"))
            .join("fx", JournalSchema.parse("ccy:string,rate:decimal(6)"));
        for (final String key : new String[] {"cards.segment", "card, cards.segment"})
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> ColumnProjection.of(PAYMENTS, joined, key, "amount"));
            assertEquals("--key cannot name a table column yet: 'cards.segment'; key by event columns", ex.getMessage());
        }
        final ColumnProjection converted = ColumnProjection.of(PAYMENTS, joined, "card", "amount * fx.rate");
        assertEquals(8, converted.valueScale());
        assertEquals(" key=card value=amount * fx.rate", converted.describe());
        final ColumnProjection rate = ColumnProjection.of(PAYMENTS, joined, "card", "fx.rate");
        assertEquals(6, rate.valueScale());
        assertEquals(-1, rate.valueColumn(), "a table's column is read through the expression");
    }

    @Test
    void aCompositeOrNonStringKeyIsKeyedByTuplesAndNamedInTheConfigurationString()
    {
        final ColumnProjection pair = ColumnProjection.of(PAYMENTS, "merchant, country", "amount");
        assertEquals(2, pair.keyArity());
        assertEquals(1, pair.keyColumn(0));
        assertEquals(2, pair.keyColumn(1));
        assertTrue(pair.keysByTuple());
        assertEquals("merchant,country", pair.keyName());
        assertEquals(" key=merchant,country value=amount", pair.describe());
        assertTrue(ColumnProjection.of(PAYMENTS, "fee", "amount").keysByTuple(), "a long key");
        assertTrue(ColumnProjection.of(PAYMENTS, "amount", "fee").keysByTuple(), "a decimal key");
        assertFalse(ColumnProjection.of(PAYMENTS, "card", "amount").keysByTuple(), "one string column keys by its dictionary ids");
    }
}
