package dev.weir.testsupport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import dev.weir.test.kafka.KafkaTestBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;


/**
 * The Kafka broker of Weir's own tests, for every module's tests: its address, an admin client, topics with unique
 * names, and reading a topic back {@code read_committed} as the client's records (headers as bytes). The broker is
 * found (and a test skipped, or failed with {@code WEIR_REQUIRE_KAFKA=1}, when none answers) by
 * {@link KafkaTestBroker}, the one place that knows it; {@code scripts/test-kafka.sh} starts and stops it.
 * Stateless; thread-safe.
 */
public final class KafkaBroker
{
    private KafkaBroker()
    {
    }

    /** @return the broker's bootstrap servers; skips (or fails) the calling test when it does not answer */
    public static String bootstrap()
    {
        return KafkaTestBroker.bootstrap();
    }

    /**
     * @param bootstrap the broker's bootstrap servers
     * @return an admin client of it ({@link KafkaTestBroker#adminProperties}), for the caller to close
     */
    public static Admin admin(final String bootstrap)
    {
        return Admin.create(KafkaTestBroker.adminProperties(bootstrap));
    }

    /**
     * @param admin      the test's admin client (the topic is created by {@link KafkaTestBroker#createTopic})
     * @param prefix     what the topic's name starts with
     * @param partitions its partitions
     * @return the name of a new topic no other test uses, its partitions' leaders answering
     */
    public static String topic(final Admin admin, final String prefix, final int partitions)
    {
        return KafkaTestBroker.createTopic(prefix, partitions);
    }

    /**
     * Read every committed record of a topic: first all those committed when the read starts (its read-committed end
     * offsets, however long that takes on a busy machine, up to 5 minutes), then any that follow until none arrives for
     * {@code quiet}.
     */
    public static List<ConsumerRecord<byte[], byte[]>> readCommitted(final String bootstrap, final String topic, final Duration quiet)
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
            // first everything committed when the read starts (the read-committed end offsets), however slow the
            // machine; then whatever follows until the topic stays quiet
            final java.util.Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(60));
            final long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
            while (!reached(consumer, end))
            {
                if (System.nanoTime() > deadline)
                {
                    throw new IllegalStateException("topic " + topic + ": the committed records up to " + end
                        + " were not read within 5 minutes");
                }
                for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200)))
                {
                    all.add(record);
                }
            }
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

    /** @return true once the consumer's position in every partition is at or past its end offset in {@code end}. */
    private static boolean reached(final KafkaConsumer<byte[], byte[]> consumer, final java.util.Map<TopicPartition, Long> end)
    {
        for (final java.util.Map.Entry<TopicPartition, Long> partition : end.entrySet())
        {
            if (consumer.position(partition.getKey()) < partition.getValue())
            {
                return false;
            }
        }
        return true;
    }
}
