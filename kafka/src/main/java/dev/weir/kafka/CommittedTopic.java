package dev.weir.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.function.Consumer;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What is committed in a topic, read {@code read_committed} from its start, every partition, until nothing new has
 * arrived for a while ({@code weir consume}): what a downstream service of a {@link KafkaRun}'s output topic reads.
 * Reads no group offsets and commits none. Stateless: each {@link #read} uses a consumer of its own, on the calling
 * thread.
 */
public final class CommittedTopic
{
    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(30);

    private CommittedTopic()
    {
    }

    /**
     * @param bootstrap the brokers, {@code host:port[,host:port...]}.
     * @param topic     the topic.
     * @param idle      how long nothing new must arrive before the read ends.
     * @param each      told each committed record, on the calling thread, in each partition's order.
     * @return the records read.
     * @throws IllegalArgumentException if the servers are not {@code HOST:PORT}, idle is not positive, or the topic
     *                                  does not exist.
     */
    public static long read(final String bootstrap, final String topic, final Duration idle, final Consumer<ConsumerRecord<byte[], byte[]>> each)
    {
        final Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaAddress.check(bootstrap));
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        if (idle.isNegative() || idle.isZero())
        {
            throw new IllegalArgumentException("idle must be positive: " + idle);
        }
        long count = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer()))
        {
            final List<TopicPartition> partitions = consumer.partitionsFor(topic, METADATA_TIMEOUT).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
            if (partitions.isEmpty())
            {
                throw new IllegalArgumentException("topic " + topic + " does not exist at " + bootstrap);
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long quietSince = System.nanoTime();
            while (System.nanoTime() - quietSince < idle.toNanos())
            {
                for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL))
                {
                    each.accept(record);
                    count++;
                    quietSince = System.nanoTime();
                }
            }
        }
        return count;
    }
}
