package dev.weir.peers;

import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * A fired window's aggregate as Weir's result row {@code window_start,window_end,key,count,sum,min,max,version}
 * (version 0: with no allowed lateness a window fires once). Stateless.
 */
final class WindowRow extends ProcessWindowFunction<long[], String, String, TimeWindow>
{
    private static final long serialVersionUID = 1L;

    @Override
    public void process(final String key, final Context context, final Iterable<long[]> aggregates, final Collector<String> out)
    {
        final long[] a = aggregates.iterator().next();
        out.collect(context.window().getStart() + "," + context.window().getEnd() + "," + key + ","
            + a[0] + "," + a[1] + "," + a[2] + "," + a[3] + ",0");
    }
}
