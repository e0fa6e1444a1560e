package dev.weir.peers;

import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.api.java.tuple.Tuple4;

/** The key of an event tuple. Stateless. */
final class EventKey implements KeySelector<Tuple4<Long, Long, String, Long>, String>
{
    private static final long serialVersionUID = 1L;

    @Override
    public String getKey(final Tuple4<Long, Long, String, Long> event)
    {
        return event.f2;
    }
}
