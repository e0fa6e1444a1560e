package dev.weir.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import java.util.Properties;

import dev.weir.test.kafka.KafkaTestBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;


/**
 * The Kafka broker of the tests (scripts/test-kafka.sh, started by {@code ./weir test}): its address, topics with
 * unique names, and reading a topic back {@code read_committed}. A test skips when no broker answers, unless
 * {@code WEIR_REQUIRE_KAFKA=1}, which fails it.
 */
final class TestBroker
{
    private TestBroker()
    {
    }

    static String bootstrap()
    {
        return KafkaTestBroker.bootstrap();
    }

    static Admin admin(final String bootstrap)
    {
        final Properties config = new Properties();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        return Admin.create(config);
    }

    static String topic(final Admin admin, final String prefix, final int partitions)
    {
        return KafkaTestBroker.createTopic(prefix, partitions);
    }

    /** Read every committed record of a topic, until none arrives for {@code quiet}. */
    static List<ConsumerRecord<byte[], byte[]>> readCommitted(final String bootstrap, final String topic, final Duration quiet)
    {
        final Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        final List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer()))
        {
            final List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long lastNew = System.nanoTime();
            while (System.nanoTime() - lastNew < quiet.toNanos())
            {
                for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200)))
                {
                    all.add(record);
                    lastNew = System.nanoTime();
                }
            }
        }
        return all;
    }

}
