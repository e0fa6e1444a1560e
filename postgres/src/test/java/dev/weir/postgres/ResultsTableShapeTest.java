package dev.weir.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.weir.engine.aggregate.NamedAggregates;
import dev.weir.engine.expr.ExpressionColumns;
import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.Test;

/**
 * The columns of a results table by the pipeline's key and value columns: the default columns give the
 * table of before columns existed; key columns are typed by their column, a decimal value's sum, min and
 * max are numeric at its scale, a mean of it too; a key column that cannot be a column of the table is
 * refused.
 */
class ResultsTableShapeTest
{
    private static final JournalSchema PAYMENTS = JournalSchema.parse(
        "card:string,merchant:string,country:string,amount:decimal(2),fee:long,channel:string");

    @Test
    void theDefaultColumnsGiveTheTableOfBeforeColumns()
    {
        assertEquals(columns("key", "text", "window_start", "bigint", "window_end", "bigint", "count", "bigint", "sum", "bigint", "min", "bigint",
            "max", "bigint", "version", "integer", "source_offset", "bigint", "aggregate", "bigint"), ResultsTableShape.DEFAULT.columns());
        assertEquals(List.of("key", "window_start", "window_end"), ResultsTableShape.DEFAULT.uniqueKey());
        assertFalse(ResultsTableShape.DEFAULT.keysByTuple());
    }

    @Test
    void keyColumnsAreTypedByTheirColumnAndADecimalValueIsNumeric()
    {
        final ResultsTableShape place = ResultsTableShape.of(PAYMENTS, new int[] {1, 2}, 3, 2);
        assertEquals(columns("merchant", "text", "country", "text", "window_start", "bigint", "window_end", "bigint", "count", "bigint",
            "sum", "numeric(38,2)", "min", "numeric(38,2)", "max", "numeric(38,2)", "version", "integer", "source_offset", "bigint",
            "aggregate", "numeric(38,2)"), place.columns());
        assertEquals(List.of("merchant", "country", "window_start", "window_end"), place.uniqueKey());
        assertTrue(place.keysByTuple());
        assertEquals("key merchant,country, value decimal(2)", place.describe());

        final ResultsTableShape byFeeAndAmount = ResultsTableShape.of(PAYMENTS, new int[] {4, 3}, 4, 0);
        assertEquals(List.of("fee", "bigint", "amount", "numeric(38,2)", "sum", "bigint", "aggregate", "bigint"), List.of("fee",
            byFeeAndAmount.columns().get("fee"), "amount", byFeeAndAmount.columns().get("amount"), "sum", byFeeAndAmount.columns().get("sum"),
            "aggregate", byFeeAndAmount.columns().get("aggregate")));
        assertTrue(byFeeAndAmount.keysByTuple(), "a long key has tuple ids");
        assertTrue(ResultsTableShape.DEFAULT.createTable("weir_results").endsWith("PRIMARY KEY (\"key\", \"window_start\", \"window_end\"))"),
            ResultsTableShape.DEFAULT.createTable("weir_results"));
    }

    @Test
    void aKeyColumnThatCannotBeAColumnOfTheTableIsRefused()
    {
        final JournalSchema clash = JournalSchema.parse("count:string,amount:long");
        final SinkRefusedException refused = assertThrows(SinkRefusedException.class, () -> ResultsTableShape.of(clash, new int[] {0}, 1, 0));
        assertTrue(refused.getMessage().contains("key column count cannot be delivered into PostgreSQL"), refused.getMessage());

        final String long64 = "k".repeat(64);
        final JournalSchema longName = JournalSchema.parse(long64 + ":string,amount:long");
        assertTrue(assertThrows(SinkRefusedException.class, () -> ResultsTableShape.of(longName, new int[] {0}, 1, 0)).getMessage()
            .contains("longer than 63"));
        assertEquals("text", ResultsTableShape.of(JournalSchema.parse("k".repeat(63) + ":string,amount:long"), new int[] {0}, 1, 0)
            .columns().get("k".repeat(63)));

        assertThrows(IllegalArgumentException.class, () -> ResultsTableShape.of(PAYMENTS, new int[] {0}, 2, 0), "a string value column");
        assertThrows(IllegalArgumentException.class, () -> ResultsTableShape.of(PAYMENTS, new int[] {1, 1}, 3, 0), "a key column twice");
    }

    @Test
    void namedAggregatesHaveOneNullableColumnEachTypedByTheirScale()
    {
        final JournalSchema trades = JournalSchema.parse("symbol:string,price:decimal(2),qty:long");
        final ResultsTableShape candles = ResultsTableShape.named(trades, new int[] {0}, new String[] {"open", "volume", "vwap", "count"},
            new int[] {2, 0, 6, 0});
        assertEquals(columns("symbol", "text", "window_start", "bigint", "window_end", "bigint", "open", "numeric(38,2)", "volume", "bigint",
            "vwap", "numeric(38,6)", "count", "bigint", "version", "integer", "source_offset", "bigint"), candles.columns(),
            "no count, sum, min, max or aggregate of their own: a column per aggregate");
        assertEquals(List.of("symbol", "window_start", "window_end"), candles.uniqueKey());
        assertEquals(List.of("open", "volume", "vwap", "count"), List.copyOf(candles.nullable().keySet()));
        assertEquals("CREATE TABLE IF NOT EXISTS \"t\" (\"symbol\" text NOT NULL, \"window_start\" bigint NOT NULL, \"window_end\" bigint NOT NULL, "
            + "\"open\" numeric(38,2), \"volume\" bigint, \"vwap\" numeric(38,6), \"count\" bigint, \"version\" integer NOT NULL, "
            + "\"source_offset\" bigint NOT NULL, PRIMARY KEY (\"symbol\", \"window_start\", \"window_end\"))", candles.createTable("t"));
        assertEquals("key symbol, aggregates open,volume,vwap,count, early", candles.withEarly().describe());
        assertEquals("boolean", candles.withEarly().columns().get("early"));
        assertEquals(4, candles.withEarly().namedAggregateCount());

        final ResultsTableShape bound = ResultsTableShape.of(trades, new int[] {0}, NamedAggregates.parse(
            "open=first(price),volume=sum(qty),vwap=sum(price*qty)/sum(qty),n=count() filter (where qty > 100)").bind(ExpressionColumns.of(trades)));
        assertEquals(columns("symbol", "text", "window_start", "bigint", "window_end", "bigint", "open", "numeric(38,2)", "volume", "bigint",
            "vwap", "numeric(38,6)", "n", "bigint", "version", "integer", "source_offset", "bigint"), bound.columns(), "by the bound aggregates' scales");

        // a key column may have the name of a column only the table of a value has, not one of this table's
        final JournalSchema byCount = JournalSchema.parse("sum:string,version:string,open:string,price:long");
        assertEquals("text", ResultsTableShape.named(byCount, new int[] {0}, new String[] {"open"}, new int[] {0}).columns().get("sum"));
        assertTrue(assertThrows(SinkRefusedException.class, () -> ResultsTableShape.named(byCount, new int[] {1}, new String[] {"open"},
            new int[] {0})).getMessage().contains("key column version cannot be delivered into PostgreSQL: the results table has a column version "
            + "of its own (window_start, window_end, open, version, source_offset)"));
        assertTrue(assertThrows(SinkRefusedException.class, () -> ResultsTableShape.named(byCount, new int[] {2}, new String[] {"open"},
            new int[] {0})).getMessage().contains("key column open cannot be delivered"));
    }

    private static Map<String, String> columns(final String... nameAndType)
    {
        final Map<String, String> columns = new LinkedHashMap<>();
        for (int i = 0; i < nameAndType.length; i += 2)
        {
            columns.put(nameAndType[i], nameAndType[i + 1]);
        }
        return columns;
    }
}
