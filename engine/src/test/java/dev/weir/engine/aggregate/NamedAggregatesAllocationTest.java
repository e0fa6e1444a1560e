package dev.weir.engine.aggregate;

import static org.junit.jupiter.api.Assertions.fail;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

/**
 * Named aggregates allocate nothing per event or per firing: filling an event's inputs, adding it to a window,
 * merging windows and reading every result (result expressions with 128-bit division included): 0 B over 1,000,000
 * events once warm. Up to three such measurements are taken, one must show 0 B: in some runs the JVM itself charges
 * the thread 56 B once, at a random moment (no deoptimisation, no GC, no sampled allocation in this code: seen with
 * JFR), which an allocation per event (at least 16 MB) or per result read could never pass for.
 */
class NamedAggregatesAllocationTest
{
    @Test
    void fillingAddingMergingAndResultsAllocateNothing()
    {
        final TradeWindows windows = new TradeWindows("open=first(price),high=max(price),low=min(price),close=last(price),volume=sum(qty),"
            + "vwap=sum(price*qty)/sum(qty),trades=count(),mean=avg(price),cards=approx_distinct(symbol),"
            + "sold=sum(qty) filter (where side = 'sell' and qty > 2),ratio=sold/volume,spread=-(high-low)*1.5,fees=sum(fee*qty)/count()");
        final TradeWindows.Trade[] trades = new TradeWindows.Trade[64];
        final String[] symbols = {"A", "B", "C", "D", "E"};
        for (int i = 0; i < trades.length; i++)
        {
            trades[i] = new TradeWindows.Trade();
            trades[i].time = (i * 7919L) % 1000;
            trades[i].ids[TradeWindows.SYMBOL] = windows.strings.intern(TradeWindows.SYMBOL, symbols[i % symbols.length]);
            trades[i].ids[TradeWindows.SIDE] = windows.strings.intern(TradeWindows.SIDE, i % 3 == 0 ? "sell" : "buy");
            trades[i].longs[TradeWindows.PRICE] = 1000 + (i * 37) % 101;
            trades[i].longs[TradeWindows.QTY] = 1 + i % 9;
            trades[i].longs[TradeWindows.FEE] = i * 13L;
        }
        final long[] window = windows.window();
        final long[] session = windows.window();
        long sink = 0;
        for (int i = 0; i < 20; i++)
        {
            sink += run(windows, trades, window, session, 100_000); // warm up: called often enough to be compiled whole
        }
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long threadId = Thread.currentThread().getId();
        final long[] allocated = new long[3];
        for (int attempt = 0; attempt < allocated.length; attempt++)
        {
            final long before = threads.getThreadAllocatedBytes(threadId);
            sink += run(windows, trades, window, session, 1_000_000);
            allocated[attempt] = threads.getThreadAllocatedBytes(threadId) - before;
            if (allocated[attempt] == 0)
            {
                return;
            }
        }
        fail("bytes allocated over 1,000,000 events, three times: " + Arrays.toString(allocated) + " (sink " + sink + ")");
    }

    private static long run(final TradeWindows windows, final TradeWindows.Trade[] trades, final long[] window, final long[] session,
        final int events)
    {
        long sink = 0;
        for (int i = 0; i < events; i++)
        {
            windows.addFilled((i & 1) == 0 ? window : session, trades[i & 63], i);
            if ((i & 255) == 255)
            {
                windows.merge(window, session);
                sink += windows.checksum(window);
            }
        }
        return sink;
    }
}
