package dev.weir.peers;

import java.nio.ByteBuffer;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The count, sum, min and max of one key's values in one window, as Weir's result rows carry them; immutable, so
 * thread-safe. {@link #SERDE} stores it in 32 bytes (Kafka Streams' window store and its changelog).
 *
 * @param count how many values.
 * @param sum their sum.
 * @param min the smallest ({@link Long#MAX_VALUE} when empty).
 * @param max the largest ({@link Long#MIN_VALUE} when empty).
 */
record WindowAggregate(long count, long sum, long min, long max)
{
    /** No values. */
    static final WindowAggregate EMPTY = new WindowAggregate(0, 0, Long.MAX_VALUE, Long.MIN_VALUE);

    /** 32 bytes: count, sum, min, max, big-endian. */
    static final Serde<WindowAggregate> SERDE = Serdes.serdeFrom(
        (Serializer<WindowAggregate>) (topic, a) -> a == null ? null
            : ByteBuffer.allocate(32).putLong(a.count).putLong(a.sum).putLong(a.min).putLong(a.max).array(),
        (Deserializer<WindowAggregate>) (topic, bytes) ->
        {
            if (bytes == null)
            {
                return null;
            }
            final ByteBuffer b = ByteBuffer.wrap(bytes);
            return new WindowAggregate(b.getLong(), b.getLong(), b.getLong(), b.getLong());
        });

    /**
     * @param value one more value.
     * @return the aggregate with it.
     */
    WindowAggregate add(final long value)
    {
        return new WindowAggregate(count + 1, sum + value, Math.min(min, value), Math.max(max, value));
    }
}
