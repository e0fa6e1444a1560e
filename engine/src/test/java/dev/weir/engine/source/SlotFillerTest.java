package dev.weir.engine.source;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weir.engine.expr.ColumnProjection;
import dev.weir.journal.schema.EventView;
import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.Test;

/**
 * The columns a slot carries: every column for a user aggregation that reads them, else only those named (an early
 * condition's), each at its index, a joined column's (past the schema's) included.
 */
class SlotFillerTest
{
    private static final JournalSchema SCHEMA = JournalSchema.parse("card:string,amount:decimal(2),qty:long");

    /** An event of the schema's three columns, then two joined long columns: column i reads 10 * (i + 1). */
    private static final EventView JOINED = new EventView()
    {
        @Override
        public long eventId()
        {
            return 1;
        }

        @Override
        public long eventTime()
        {
            return 1_000;
        }

        @Override
        public long longColumn(final int column)
        {
            return 10L * (column + 1);
        }

        @Override
        public int stringId(final int column)
        {
            return 7;
        }
    };

    @Test
    void copiesEveryColumnOrOnlyTheNamedOnesAtTheirIndex()
    {
        final ColumnProjection projection = ColumnProjection.of(SCHEMA, "card", "amount");
        final EventSlot every = new EventSlot(SCHEMA.size());
        new SlotFiller(projection, null, null, true).fill(every, 5, JOINED);
        assertArrayEquals(new long[] {7, 20, 30}, every.columns);
        final EventSlot named = new EventSlot(5);
        new SlotFiller(projection, null, null, new int[] {2, 4}).fill(named, 5, JOINED);
        assertArrayEquals(new long[] {0, 0, 30, 0, 50}, named.columns, "qty and the second joined column only");
        assertEquals(20, named.value);
        assertEquals(7, named.keyId);
    }
}
