package dev.weir.engine.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.journal.JournalSchema;
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
        assertEquals(0, projection.keyColumn());
        assertEquals(1, projection.valueColumn());
    }

    @Test
    void anyStringColumnKeysAndAnyLongOrDecimalColumnIsTheValue()
    {
        final ColumnProjection byMerchant = ColumnProjection.of(PAYMENTS, "merchant", "amount");
        assertFalse(byMerchant.isDefault());
        assertEquals(1, byMerchant.keyColumn());
        assertEquals(3, byMerchant.valueColumn());
        assertEquals(2, byMerchant.valueScale());
        assertEquals(" key=merchant value=amount", byMerchant.describe());
        assertEquals(0, ColumnProjection.of(PAYMENTS, "channel", "fee").valueScale());
    }

    @Test
    void aMissingOrMistypedColumnIsRefusedNamingTheSchema()
    {
        for (final String[] wrong : new String[][] {{"key", "amount"}, {"amount", "amount"}, {"card", "merchant"}, {"card", "total"}})
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> ColumnProjection.of(PAYMENTS, wrong[0], wrong[1]));
            assertTrue(ex.getMessage().contains(PAYMENTS.toString()), ex.getMessage());
        }
    }
}
