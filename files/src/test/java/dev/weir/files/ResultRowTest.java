package dev.weir.files;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weir.engine.fired.FiredResult;
import dev.weir.engine.fired.SkippedEvent;
import org.junit.jupiter.api.Test;

/**
 * One pipeline's row format: the default columns give the rows of before columns existed; another key
 * column names the key field; keys are quoted (CSV) or escaped (JSON) where they need it; a decimal
 * value column prints sum, min, max and late values at its scale; named aggregates give a column each, at its
 * scale, empty (JSON null) when the window has no value for it, and late events without a value.
 */
class ResultRowTest
{
    private static final FiredResult RESULT =
        new FiredResult().window(0, 10_000).keyId(0).count(3).sum(1234).min(-5).max(1200).version(1).sourceOffset(7);

    @Test
    void theDefaultColumnsGiveTheRowsOfBefore()
    {
        final ResultRow rows = new ResultRow(KeyColumns.single("key", id -> "card-1"), "value", 0, false, 0);
        assertEquals(ResultRow.HEADER, rows.header());
        assertEquals("event_id,event_time,key,value", rows.lateHeader());
        assertEquals("0,10000,card-1,3,1234,-5,1200,1", rows.csv(new StringBuilder(), RESULT).toString());
        assertEquals("{\"window_start\":0,\"window_end\":10000,\"key\":\"card-1\",\"count\":3,\"sum\":1234,\"min\":-5,\"max\":1200,\"version\":1}",
            rows.json(new StringBuilder(), RESULT).toString());
    }

    @Test
    void aDecimalValueColumnPrintsAtItsScaleAndKeysAreQuotedOrEscaped()
    {
        final ResultRow rows = new ResultRow(KeyColumns.single("merchant", id -> "Café \"Le Bon\", Paris"), "amount", 2, false, 0);
        assertEquals("window_start,window_end,merchant,count,sum,min,max,version", rows.header());
        assertEquals("event_id,event_time,merchant,amount", rows.lateHeader());
        assertEquals("0,10000,\"Café \"\"Le Bon\"\", Paris\",3,12.34,-0.05,12.00,1", rows.csv(new StringBuilder(), RESULT).toString());
        assertEquals("{\"window_start\":0,\"window_end\":10000,\"merchant\":\"Café \\\"Le Bon\\\", Paris\",\"count\":3,\"sum\":12.34,"
            + "\"min\":-0.05,\"max\":12.00,\"version\":1}", rows.json(new StringBuilder(), RESULT).toString());
        assertEquals("9,5000,\"Café \"\"Le Bon\"\", Paris\",-1.50", rows.late(new SkippedEvent().set(9, 5_000, 0, -150, 3)));
    }

    @Test
    void aMeanPrintsAtTheValuesScaleAndADistinctCountAsItIs()
    {
        final FiredResult withAggregate = new FiredResult().window(0, 10_000).keyId(0).count(3).sum(1234).min(-5).max(1200).version(1)
            .sourceOffset(7).withAggregate(411);
        assertEquals("0,10000,c,3,12.34,-0.05,12.00,1,4.11",
            new ResultRow(KeyColumns.single("card", id -> "c"), "amount", 2, true, 2).csv(new StringBuilder(), withAggregate).toString());
        assertEquals("0,10000,c,3,12.34,-0.05,12.00,1,411",
            new ResultRow(KeyColumns.single("card", id -> "c"), "amount", 2, true, 0).csv(new StringBuilder(), withAggregate).toString());
    }

    @Test
    void namedAggregatesGiveAColumnEachAtItsScaleAndNothingWhenEmpty()
    {
        // open=first(price),volume=sum(qty),vwap=sum(price*qty)/sum(qty),trades=count(): vwap empty (no bit 2 in the mask)
        final FiredResult candle = new FiredResult().window(0, 60_000).keyId(0).count(3).version(1).sourceOffset(7).withAggregates(5)
            .withAggregate(0, -1250).withAggregate(1, 30).withAggregate(2, 0).withAggregate(3, 3).withAggregate(4, 0b1011);
        final ResultRow rows = ResultRow.named(KeyColumns.single("instrument", id -> "AC,ME"), new String[] {"open", "volume", "vwap", "trades"},
            new int[] {2, 0, 6, 0});

        assertEquals("window_start,window_end,instrument,open,volume,vwap,trades,version", rows.header());
        assertEquals("event_id,event_time,instrument", rows.lateHeader());
        assertEquals("0,60000,\"AC,ME\",-12.50,30,,3,1", rows.csv(new StringBuilder(), candle).toString());
        assertEquals("{\"window_start\":0,\"window_end\":60000,\"instrument\":\"AC,ME\",\"open\":-12.50,\"volume\":30,\"vwap\":null,"
            + "\"trades\":3,\"version\":1}", rows.json(new StringBuilder(), candle).toString());
        assertEquals("9,5000,\"AC,ME\"", rows.late(new SkippedEvent().set(9, 5_000, 0, 0, 3)));

        final ResultRow kinds = rows.withKinds().withIsoTimes();
        assertEquals("window_start,window_end,instrument,open,volume,vwap,trades,version,kind", kinds.header());
        assertEquals("1970-01-01T00:00:00Z,1970-01-01T00:01:00Z,\"AC,ME\",-12.50,30,,3,1,final", kinds.csv(new StringBuilder(), candle).toString());
        assertEquals("{\"window_start\":\"1970-01-01T00:00:00Z\",\"window_end\":\"1970-01-01T00:01:00Z\",\"instrument\":\"AC,ME\",\"open\":-12.50,"
            + "\"volume\":30,\"vwap\":null,\"trades\":3,\"version\":1,\"kind\":\"final\"}", kinds.json(new StringBuilder(), candle).toString());
        assertEquals("9,1970-01-01T00:00:05Z,\"AC,ME\"", kinds.late(new SkippedEvent().set(9, 5_000, 0, 0, 3)));

        candle.withAggregate(4, 0); // no bit in the mask: every field empty, whatever the value stored
        assertEquals("0,60000,\"AC,ME\",,,,,1", rows.csv(new StringBuilder(), candle).toString());
    }
}
