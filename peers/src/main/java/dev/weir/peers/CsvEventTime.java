package dev.weir.peers;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.processor.TimestampExtractor;

/**
 * Kafka Streams' event time of a record whose value is an events CSV line: its {@code event_time} field, or -1 for
 * a line Weir would reject, which Kafka Streams then drops (a negative timestamp is skipped and counted in the
 * dropped-records metric) without moving the task's stream time. Stateless and thread-safe.
 */
public final class CsvEventTime implements TimestampExtractor
{
    /** Used by Kafka Streams (configured by class name). */
    public CsvEventTime()
    {
    }

    @Override
    public long extract(final ConsumerRecord<Object, Object> record, final long partitionTime)
    {
        final Object value = record.value();
        return value instanceof String ? PaymentLine.eventTime((String) value) : PaymentLine.INVALID;
    }
}
