package dev.weir.engine.aggregate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Each function's state machine on a window's state, as the engine drives it (inputs filled once per event, then
 * added): values, emptiness, filters, merging sessions, first/last under any arrival order, and result expressions
 * (empty operands, division by zero, results that do not fit).
 */
class NamedAggregationsTest
{
    private static final String OHLC = "open=first(price),high=max(price),low=min(price),close=last(price),volume=sum(qty),"
        + "vwap=sum(price*qty)/sum(qty),trades=count(),mean=avg(price)";

    @Test
    void computesABarOfTrades()
    {
        final TradeWindows windows = new TradeWindows(OHLC);
        final long[] window = windows.window();
        windows.add(window, "ACME", "buy", 1000, 3, 100);
        windows.add(window, "ACME", "sell", 1250, 1, 300);
        windows.add(window, "ACME", "buy", 950, 4, 200);
        // vwap = (10.00*3 + 12.50*1 + 9.50*4) / 8 = 80.50 / 8 = 10.0625
        assertEquals(Arrays.asList("10.00", "12.50", "9.50", "12.50", "8", "10.062500", "3", "10.666667"), windows.results(window));
    }

    @Test
    void anEmptyWindowHasOnlyCounts()
    {
        final TradeWindows windows = new TradeWindows(OHLC + ",cards=approx_distinct(symbol)");
        assertEquals(Arrays.asList(null, null, null, null, null, null, "0", null, "0"), windows.results(windows.window()));
    }

    @Test
    void callsSeeOnlyTheEventsTheirFilterMatches()
    {
        final TradeWindows windows = new TradeWindows("bought=sum(qty) filter (where side = 'buy'),sells=count() filter (where side='sell'),"
            + "big=max(qty) filter (where qty >= 10),cards=approx_distinct(symbol) filter (where side = 'sell'),all=count()");
        final long[] window = windows.window();
        windows.add(window, "A", "buy", 100, 3, 1);
        windows.add(window, "B", "buy", 100, 4, 2);
        assertEquals(Arrays.asList("7", "0", null, "0", "2"), windows.results(window), "no sell yet; no big trade");
        windows.add(window, "C", "sell", 100, 12, 3);
        windows.add(window, "C", "sell", 100, 11, 4);
        windows.add(window, "D", "sell", 100, 1, 5);
        assertEquals(Arrays.asList("7", "3", "12", "2", "5"), windows.results(window));
    }

    @Test
    void firstAndLastGoByEventTimeThenJournalOrder()
    {
        final TradeWindows windows = new TradeWindows("first=first(qty),last=last(qty)");
        final long[][] trades = {{1, 500, 10}, {2, 100, 11}, {3, 100, 12}, {4, 900, 13}, {5, 900, 14}, {6, 300, 15}}; // qty, time, offset
        final List<List<String>> results = new ArrayList<>();
        for (final int[] order : new int[][] {{0, 1, 2, 3, 4, 5}, {5, 4, 3, 2, 1, 0}, {2, 4, 0, 5, 1, 3}})
        {
            final long[] window = windows.window();
            for (final int i : order)
            {
                windows.add(window, "A", "buy", 100, trades[i][0], trades[i][1], trades[i][2]);
            }
            results.add(windows.results(window));
        }
        assertEquals(List.of("2", "5"), results.get(0), "earliest time, first in the journal; latest time, last in the journal");
        assertEquals(results.get(0), results.get(1), "whatever the arrival order");
        assertEquals(results.get(0), results.get(2), "whatever the arrival order");
    }

    @Test
    void mergedSessionsAreAsOneWindow()
    {
        final String list = OHLC + ",lo=first(qty) filter (where side = 'sell'),cards=approx_distinct(symbol),spread=max(price)-min(price)";
        final TradeWindows windows = new TradeWindows(list);
        final long[] one = windows.window();
        final long[] left = windows.window();
        final long[] right = windows.window();
        final String[] symbols = {"A", "B", "C"};
        for (int i = 0; i < 40; i++)
        {
            final long price = 1000 + (i * 37) % 101 - 50;
            final long time = (i * 13) % 29; // out of order, with ties
            final String side = i % 3 == 0 ? "sell" : "buy";
            windows.add(one, symbols[i % 3], side, price, i + 1, time, i);
            windows.add(i % 2 == 0 ? left : right, symbols[i % 3], side, price, i + 1, time, i);
        }
        final long[] leftFirst = left.clone();
        windows.merge(leftFirst, right);
        windows.merge(right, left);
        assertEquals(windows.results(one), windows.results(leftFirst));
        assertEquals(windows.results(one), windows.results(right), "merging either way");
    }

    @Test
    void mergingAnEmptySessionChangesNothing()
    {
        final TradeWindows windows = new TradeWindows("lo=min(qty),first=first(qty),s=sum(qty)");
        final long[] window = windows.window();
        windows.add(window, "A", "buy", 100, 7, 5);
        final List<String> before = windows.results(window);
        windows.merge(window, windows.window());
        assertEquals(before, windows.results(window));
        final long[] empty = windows.window();
        windows.merge(empty, window);
        assertEquals(before, windows.results(empty), "an empty session takes the other's values");
    }

    @Test
    void minAndMaxOfNegativeValues()
    {
        final TradeWindows windows = new TradeWindows("lo=min(qty),hi=max(qty),s=sum(-qty)");
        final long[] window = windows.window();
        windows.add(window, "A", "buy", 100, -3, 1);
        windows.add(window, "A", "buy", 100, -9, 2);
        assertEquals(List.of("-9", "-3", "12"), windows.results(window));
    }

    @Test
    void sumWrapsAsTheEngineSumDoes()
    {
        final TradeWindows windows = new TradeWindows("s=sum(qty)");
        final long[] window = windows.window();
        windows.add(window, "A", "buy", 0, Long.MAX_VALUE, 1);
        windows.add(window, "A", "buy", 0, 2, 2);
        assertEquals(Long.MIN_VALUE + 1, windows.result(window, 0));
    }

    @Test
    void inputsTellWhenAValueWrapped()
    {
        final TradeWindows windows = new TradeWindows("n=count(),s=sum(qty),sq=max(qty*qty)");
        final TradeWindows.Trade trade = new TradeWindows.Trade();
        final long[] inputs = new long[windows.bound.inputCount()];
        trade.longs[TradeWindows.QTY] = 1L << 32;
        windows.inputs.fill(trade, inputs);
        assertTrue(windows.inputs.wrapped(), "2^64 is no long");
        trade.longs[TradeWindows.QTY] = 3;
        windows.inputs.fill(trade, inputs);
        assertFalse(windows.inputs.wrapped(), "the next event's values did not wrap");
        assertEquals(List.of(3L, 9L), List.of(inputs[0], inputs[1]));
    }

    @Test
    void averageRoundsHalfToEvenAtSixDecimalsOrTheValues()
    {
        final TradeWindows windows = new TradeWindows("q=avg(qty),f=avg(fee*price*0.0001)");
        final long[] window = windows.window();
        windows.add(window, "A", "buy", 100, 1, 1); // fee = 100 % 7 = 2: 0.0002 * 1.00 * 0.0001
        windows.add(window, "A", "buy", 100, 2, 2);
        assertEquals("1.500000", windows.results(window).get(0));
        assertEquals(10, windows.bound.scale(1));
        assertEquals("0.0000000200", windows.results(window).get(1));
        final long[] ties = windows.window();
        windows.add(ties, "A", "buy", 0, 1, 1);
        for (int i = 0; i < 7; i++)
        {
            windows.add(ties, "A", "buy", 0, 0, 2);
        }
        assertEquals("0.125000", windows.results(ties).get(0), "1/8 exactly");
        for (int i = 0; i < 8; i++)
        {
            windows.add(ties, "A", "buy", 0, 0, 3);
        }
        assertEquals("0.062500", windows.results(ties).get(0), "1/16 exactly");
    }

    @Test
    void resultExpressionsAreEmptyWhenAnOperandIsOrTheyCannotBeComputed()
    {
        final TradeWindows windows = new TradeWindows("sold=sum(qty) filter (where side = 'sell'),bought=sum(qty) filter (where side='buy'),"
            + "ratio=sold/bought,net=bought-sold,buys=count() filter (where side='buy'),per=sold/buys,huge=max(qty)*max(qty),"
            + "two=1+1,neg=-min(qty)");
        final long[] window = windows.window();
        windows.add(window, "A", "sell", 0, 6, 1);
        assertEquals(Arrays.asList("6", null, null, null, "0", null, "36", "2", "-6"), windows.results(window),
            "no buy: bought, ratio and net are empty; per divides by a count of 0");
        windows.add(window, "A", "buy", 0, 4, 2);
        assertEquals(Arrays.asList("6", "4", "1.500000", "-2", "1", "6.000000", "36", "2", "-4"), windows.results(window));
        windows.add(window, "A", "buy", 0, 5_000_000_000L, 3);
        assertNull(windows.results(window).get(6), "a product past the long range is empty");
    }

    @Test
    void initialisesStateThatHeldGarbage()
    {
        final TradeWindows windows = new TradeWindows(OHLC + ",cards=approx_distinct(side),r=sum(qty)/count()");
        assertEquals(Arrays.asList(null, null, null, null, null, null, "0", null, "0", null), windows.results(windows.window()));
    }
}
