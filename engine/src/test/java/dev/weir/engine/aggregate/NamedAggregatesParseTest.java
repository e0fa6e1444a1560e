package dev.weir.engine.aggregate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Reading a list of named aggregates without a schema: every function, filter clauses, nesting, commas that do not
 * split, references to earlier aggregates, the normalised text; and every refusal, its message and position.
 */
class NamedAggregatesParseTest
{
    @Test
    void readsEveryFunctionWithItsName()
    {
        final NamedAggregates list = NamedAggregates.parse(
            "open=first(price),high=max(price),low=min(price),close=last(price),volume=sum(qty),mean=avg(price),trades=count(),"
                + "cards=approx_distinct(symbol)");
        assertEquals(List.of("open", "high", "low", "close", "volume", "mean", "trades", "cards"), list.names());
        assertEquals(8, list.size());
        assertEquals(4, list.indexOf("volume"));
        assertEquals(-1, list.indexOf("median"));
    }

    @Test
    void normalisesSpacesAndKeywordCase()
    {
        final NamedAggregates list = NamedAggregates.parse(
            "  vwap = sum( price * qty ) / sum(qty) ,  declines = count( ) FILTER ( WHERE side = 'sell'  AND qty>10 ),"
                + " big=sum(qty) filter(where symbol NOT IN ( 'a, b' , 'it''s' ))");
        assertEquals("vwap=sum(price*qty)/sum(qty),declines=count() filter(where side='sell' and qty>10),"
            + "big=sum(qty) filter(where symbol not in ('a, b','it''s'))", list.text());
        assertEquals(list.text(), NamedAggregates.parse(list.text()).text(), "the normalised text reads as itself");
        assertEquals(List.of("vwap", "declines", "big"), list.names(), "commas inside quotes and parentheses do not split");
    }

    @Test
    void keepsOnlyTheParenthesesThatMatter()
    {
        assertEquals("x=(sum(qty)+1)*2,y=sum(qty)-(count()-1),z=-(-max(qty)),w=sum(qty)/(2*count())",
            NamedAggregates.parse("x=((sum(qty))+1)*2,y=(sum(qty))-(count()-1),z=-(-(max(qty))),w=(sum(qty))/(2*count())").text());
        assertEquals("a=sum(qty)+count()*2-max(qty)/2,b=-1.50*a,c=a--2",
            NamedAggregates.parse("a=sum(qty)+(count()*2)-(max(qty)/2),b=-1.50*a,c=a - -2").text());
    }

    @Test
    void namesAnEarlierAggregateInAResult()
    {
        final NamedAggregates list = NamedAggregates.parse("notional=sum(price*qty),volume=sum(qty),vwap=notional/volume");
        assertEquals("notional=sum(price*qty),volume=sum(qty),vwap=notional/volume", list.text());
        assertEquals("count=count(),twice=count*2", NamedAggregates.parse("count=count(), twice=count*2").text(),
            "a name may be a function's: a call has parentheses");
    }

    @Test
    void readsNestedParenthesesInsideValuesAndFilters()
    {
        assertEquals("x=sum((price-(fee*2))*qty) filter(where (qty>1 or (side='b)' and qty<5)))",
            NamedAggregates.parse("x=sum((price - (fee * 2)) * qty) filter (where (qty > 1 or (side = 'b)' and qty < 5)))").text());
    }

    @Test
    void refusesAnUnknownFunction()
    {
        refused("open=median(price)", 5,
            "aggregates 'open=median(price)': unknown function 'median' at position 6: "
                + "expected count, sum, min, max, first, last, avg or approx_distinct");
        refused("n=COUNT()", 2, "unknown function 'COUNT' at position 3");
    }

    @Test
    void refusesBadNames()
    {
        refused("Total=sum(qty)", 0, "bad name 'Total' at position 1: expected lower-case letters, digits and '_', at most 63");
        refused("1x=sum(qty)", 0, "bad name '1x' at position 1");
        refused("a".repeat(64) + "=sum(qty)", 0, "bad name '" + "a".repeat(64) + "'");
        NamedAggregates.parse("a".repeat(63) + "=sum(qty)");
        for (final String reserved : List.of("window_start", "window_end", "version", "kind", "source_offset", "early", "event_id",
            "event_time"))
        {
            refused("n=count()," + reserved + "=sum(qty)", 10, "reserved name '" + reserved + "' at position 11");
        }
        refused("n=count(), n=sum(qty)", 11, "repeated name 'n' at position 12: each aggregate needs its own name");
    }

    @Test
    void refusesMoreThanFifteen()
    {
        final StringBuilder list = new StringBuilder();
        for (int i = 0; i < NamedAggregates.MAX; i++)
        {
            list.append("a").append(i).append("=count(),");
        }
        NamedAggregates.parse(list.substring(0, list.length() - 1));
        final int sixteenth = list.length();
        list.append("z=count()");
        refused(list.toString(), sixteenth, "more than 15 aggregates at position " + (sixteenth + 1));
    }

    @Test
    void refusesAnUnknownOrLaterName()
    {
        refused("vwap=notional/volume,notional=sum(qty)", 5,
            "unknown aggregate 'notional' at position 6: expected a function call or an earlier aggregate's name");
        refused("a=sum(qty),b=a+c", 15, "unknown aggregate 'c' at position 16: expected a function call or an earlier aggregate's name (a)");
        refused("a=a+1", 2, "unknown aggregate 'a' at position 3");
        refused("a=sum", 2, "unknown aggregate 'sum' at position 3: expected '(' after the function's name");
    }

    @Test
    void refusesWrongArguments()
    {
        refused("n=count(qty)", 8, "count takes no value at position 9: expected count()");
        refused("s=sum( )", 6, "sum needs a value at position 7: expected e.g. sum(amount)");
        refused("d=approx_distinct()", 18, "approx_distinct needs a value at position 19: expected a column");
        refused("d=approx_distinct( price*2)", 19, "approx_distinct takes one column at position 20");
    }

    @Test
    void refusesBadFilterClauses()
    {
        refused("n=count() filter where x", 17, "missing '(' after 'filter' at position 18: expected filter (where CONDITION)");
        refused("n=count() filter (x > 1)", 18, "missing 'where' at position 19");
        refused("n=count() filter (where )", 24, "missing condition at position 25");
        refused("n=count() filter (where x = ')'", 31, "missing ')' at position 32");
    }

    @Test
    void refusesBrokenStructure()
    {
        refused("", 0, "missing aggregate at position 1: expected NAME=FUNCTION(VALUE)");
        refused("a=count(),", 10, "missing aggregate at position 11");
        refused("a count()", 2, "missing '=' after 'a' at position 3");
        refused("a=", 2, "missing value at position 3: expected a function call, an earlier aggregate's name, a number or '('");
        refused("a=sum(qty", 9, "missing ')' at position 10: expected ')' to close the '(' at position 6");
        refused("a=(sum(qty)", 11, "missing ')' at position 12: expected ')' or an operator");
        refused("a=sum(qty) sum(qty)", 11, "unexpected 's' at position 12: expected ',', an operator or the end");
        refused("a=sum(qty)*", 11, "missing value at position 12");
        refused("a=sum(qty)*2x", 12, "unexpected 'x' in a number at position 13");
        refused("a=2.", 4, "missing digits after '.' at position 5");
        refused("a=1.0000000000000000001*count()", 2, "'1.0000000000000000001' has more than 18 decimals at position 3");
        refused("a=99999999999999999999*count()", 2, "'99999999999999999999' does not fit a long at its scale at position 3");
    }

    private static void refused(final String list, final int position, final String message)
    {
        Refusals.assertRefused(list, () -> NamedAggregates.parse(list), position, message);
    }
}
