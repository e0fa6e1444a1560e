package dev.weir.peers;

import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.java.tuple.Tuple4;
import org.apache.flink.util.Collector;

/**
 * Parses a line {@code event_id,event_time,key,value} into one reused {@code (id, time, key, value)} tuple (object
 * reuse is on and the next operator serializes it before the next line), skipping the header. Integers are parsed
 * by hand (no split, no regex), as a user tuning the job would. One instance per parallel subtask.
 */
final class EventParser implements FlatMapFunction<String, Tuple4<Long, Long, String, Long>>
{
    private static final long serialVersionUID = 1L;

    private transient Tuple4<Long, Long, String, Long> event;

    @Override
    public void flatMap(final String line, final Collector<Tuple4<Long, Long, String, Long>> out)
    {
        if (line.isEmpty() || line.charAt(0) < '0' || line.charAt(0) > '9')
        {
            return; // the header (or an empty line)
        }
        final int c1 = line.indexOf(',');
        final int c2 = line.indexOf(',', c1 + 1);
        final int c3 = line.indexOf(',', c2 + 1);
        if (event == null)
        {
            event = new Tuple4<>();
        }
        event.f0 = parseLong(line, 0, c1);
        event.f1 = parseLong(line, c1 + 1, c2);
        event.f2 = line.substring(c2 + 1, c3);
        event.f3 = parseLong(line, c3 + 1, line.length());
        out.collect(event);
    }

    private static long parseLong(final String text, final int from, final int to)
    {
        int i = from;
        final boolean negative = text.charAt(i) == '-';
        if (negative)
        {
            i++;
        }
        long v = 0;
        for (; i < to; i++)
        {
            v = v * 10 + (text.charAt(i) - '0');
        }
        return negative ? -v : v;
    }
}
