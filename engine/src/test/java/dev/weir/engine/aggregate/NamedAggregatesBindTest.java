package dev.weir.engine.aggregate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import dev.weir.engine.expr.ExpressionColumns;
import org.junit.jupiter.api.Test;

/**
 * Binding named aggregates to a schema: every scale rule, equal values sharing an input and equal filters a bit, and
 * every refusal (unknown column, wrong type, too many decimals, filters or longs of state), placed in the whole list.
 */
class NamedAggregatesBindTest
{
    private static final ExpressionColumns COLUMNS = ExpressionColumns.of(TradeWindows.SCHEMA);

    @Test
    void givesEachAggregateItsScale()
    {
        final BoundAggregates bound = bind("open=first(price),volume=sum(qty),trades=count(),cards=approx_distinct(symbol),"
            + "mean=avg(qty),meanprice=avg(price),fees=max(fee),notional=sum(price*qty),vwap=notional/volume,"
            + "spread=max(price)-min(fee),cost=sum(price)*sum(fee),half=sum(qty)*0.5,micro=avg(fee*price*10.000000000)");
        assertEquals(List.of(2, 0, 0, 0, 6, 6, 4, 2, 6, 4, 6, 1, 15), scales(bound));
        assertEquals(List.of("open", "volume", "trades", "cards", "mean", "meanprice", "fees", "notional", "vwap", "spread", "cost",
            "half", "micro"), names(bound));
        assertTrue(bound.isDecimal(0));
        assertFalse(bound.isDecimal(1));
        assertEquals(13, bound.newAggregations().size());
        assertEquals("vwap=notional/volume", bound.newAggregations().get(8).name(), "the configuration names the aggregate");
        assertEquals(bound.definitions().text(), bound.toString());
    }

    @Test
    void equalValuesShareAnInput()
    {
        final BoundAggregates bound = bind("a=sum(qty),b=max( qty ),c=min((qty)),d=sum(price*qty),e=last(price * qty),f=approx_distinct(qty),"
            + "g=count()");
        assertEquals(3, bound.inputCount(), "qty, price*qty, and qty's raw long");
        assertEquals(0, bind("n=count()").inputCount());
    }

    @Test
    void equalFiltersShareABit()
    {
        final TradeWindows windows = new TradeWindows(
            "a=count() filter (where side = 'buy'),b=sum(qty) filter (WHERE (side='buy')),c=max(qty) filter (where qty > 5)");
        final TradeWindows.Trade trade = new TradeWindows.Trade();
        trade.ids[TradeWindows.SIDE] = windows.strings.intern(TradeWindows.SIDE, "buy");
        trade.longs[TradeWindows.QTY] = 9;
        assertEquals(0b11, windows.inputs.fill(trade, new long[windows.bound.inputCount()]), "two different filters: two bits");
    }

    @Test
    void refusesAnUnknownColumnWhereItIs()
    {
        refused("n=count(),s=sum(pric)", 16,
            "aggregates 'n=count(),s=sum(pric)': unknown column 'pric' at position 17: expected one of event_id, event_time, symbol, side,"
                + " price, qty, fee");
        refused("n=count() filter (where sid = 'buy')", 24, "unknown column 'sid' at position 25");
        refused("d=approx_distinct(  venue )", 20, "unknown column 'venue' at position 21: expected one of symbol, side, price, qty, fee");
    }

    @Test
    void refusesValuesOfTheWrongTypeOrShape()
    {
        refused("s=sum(symbol)", 6, "at position 7");
        refused("s=sum(qty +)", 11, "bad value 'qty +' at position 12: expected a column, a number, a string or '('");
        refused("n=count() filter (where qty)", 24, "bad filter 'qty' at position 25: expected a condition");
        refused("s=sum(fee*fee*fee*fee*fee)", 21, "the product has 20 decimals, more than 18");
    }

    @Test
    void refusesAResultOverEighteenDecimals()
    {
        refused("p=sum(fee*fee*fee)*sum(fee*fee)", 18, "the product has 20 decimals at position 19: at most 18");
    }

    @Test
    void refusesMoreThan64Filters()
    {
        final List<String> aggregates = new ArrayList<>();
        int filter = 0;
        for (int a = 0; a < 5; a++)
        {
            final List<String> calls = new ArrayList<>();
            for (int c = 0; c < 13; c++)
            {
                calls.add("count() filter (where qty > " + filter++ + ")");
            }
            aggregates.add("a" + a + "=" + String.join("+", calls));
        }
        final String list = String.join(",", aggregates);
        final AggregateSyntaxException ex = assertThrows(AggregateSyntaxException.class, () -> bind(list));
        assertEquals(list.lastIndexOf("qty > 64"), ex.position(), ex.getMessage());
        assertTrue(ex.getMessage().contains("more than 64 different filters"), ex.getMessage());
    }

    @Test
    void refusesAResultNeedingMoreStateThanAnAggregationKeeps()
    {
        refused("n=count(),x=" + "+first(qty)".repeat(11).substring(1), 10,
            "'x' needs 33 longs of state at position 11: at most 32: name fewer calls in it");
        bind("x=" + "+approx_distinct(qty)".repeat(4).substring(1)); // 32 longs
    }

    private static BoundAggregates bind(final String list)
    {
        return NamedAggregates.parse(list).bind(COLUMNS);
    }

    private static List<Integer> scales(final BoundAggregates bound)
    {
        final List<Integer> scales = new ArrayList<>();
        for (int i = 0; i < bound.size(); i++)
        {
            scales.add(bound.scale(i));
        }
        return scales;
    }

    private static List<String> names(final BoundAggregates bound)
    {
        final List<String> names = new ArrayList<>();
        for (int i = 0; i < bound.size(); i++)
        {
            names.add(bound.name(i));
        }
        return names;
    }

    private static void refused(final String list, final int position, final String message)
    {
        Refusals.assertRefused(list, () -> bind(list), position, message);
    }
}
