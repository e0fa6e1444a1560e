package dev.weir.test.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The fixture against the real broker: records produced in a committed transaction are read back with their
 * partitions, keys, values and headers; those of an aborted transaction are not.
 */
@Tag("slow")
final class KafkaTestBrokerTest
{
    @Test
    void readsBackTheRecordsOfACommittedTransactionOnly()
    {
        final String bootstrap = KafkaTestBroker.bootstrap();
        final String topic = KafkaTestBroker.createTopic("fixture-smoke", 3);
        final Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        properties.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, KafkaTestBroker.uniqueName("fixture-smoke"));
        properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties))
        {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, 1, "aborted", "never seen"));
            producer.flush();
            producer.abortTransaction();
            producer.beginTransaction();
            for (int p = 0; p < 3; p++)
            {
                final ProducerRecord<String, String> record = new ProducerRecord<>(topic, p, "card-" + p, "1," + (1000 + p) + ",card-" + p + ",7");
                record.headers().add("weir-source", ("in:" + p).getBytes(StandardCharsets.UTF_8));
                producer.send(record);
            }
            producer.commitTransaction();
        }

        final List<TopicRecord> read = KafkaTestBroker.readCommitted(topic, 4, Duration.ofSeconds(3));
        read.sort(Comparator.comparingInt(TopicRecord::partition));
        assertEquals(3, read.size(), () -> "read: " + read);
        for (int p = 0; p < 3; p++)
        {
            final TopicRecord record = read.get(p);
            assertEquals(p, record.partition());
            assertEquals("card-" + p, record.key());
            assertEquals("1," + (1000 + p) + ",card-" + p + ",7", record.value());
            assertEquals(Map.of("weir-source", "in:" + p), record.headers());
        }
    }
}
