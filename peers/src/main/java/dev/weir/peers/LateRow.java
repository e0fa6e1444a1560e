package dev.weir.peers;

import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.java.tuple.Tuple4;

/** A late event as Weir's late row {@code event_id,event_time,key,value}. Stateless. */
final class LateRow implements MapFunction<Tuple4<Long, Long, String, Long>, String>
{
    private static final long serialVersionUID = 1L;

    @Override
    public String map(final Tuple4<Long, Long, String, Long> event)
    {
        return event.f0 + "," + event.f1 + "," + event.f2 + "," + event.f3;
    }
}
