package dev.weir.test.kafka;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One record read back from a topic, with its key, value and header values as UTF-8 text. Immutable.
 *
 * @param partition the partition it was read from.
 * @param offset    its offset in that partition.
 * @param timestamp its timestamp (ms since the epoch; by default the producer's clock when it was sent).
 * @param key       its key as UTF-8 text, or null for a null key.
 * @param value     its value as UTF-8 text, or null for a null value (a tombstone).
 * @param headers   its headers by name, in their order (the last value of a repeated name), as UTF-8 text;
 *                  unmodifiable.
 */
public record TopicRecord(int partition, long offset, long timestamp, String key, String value, Map<String, String> headers)
{
    /**
     * @param partition the partition it was read from.
     * @param offset    its offset in that partition.
     * @param timestamp its timestamp.
     * @param key       its key, or null.
     * @param value     its value, or null.
     * @param headers   its headers by name (copied, in their order).
     */
    public TopicRecord
    {
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }

    /**
     * @param name a header's name.
     * @return its value, or null if the record has no such header.
     */
    public String header(final String name)
    {
        return headers.get(name);
    }

    @Override
    public String toString()
    {
        return partition + "@" + offset + " " + key + " -> " + value + (headers.isEmpty() ? "" : " " + headers);
    }
}
