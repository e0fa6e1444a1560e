package dev.weir.kafka;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import dev.weir.testsupport.KafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The checkpoint topic read incrementally (issue 35): each read takes only the records committed after the previous
 * one, never an aborted transaction's chunks, keeps only the newest checkpoint's chunks, and gives what a read of
 * the whole topic gives.
 */
@Tag("slow")
final class CheckpointIndexTest
{
    private static final String SOURCE = "payments";

    @Test
    void eachReadTakesOnlyWhatWasCommittedSinceThePrevious() throws Exception
    {
        final String bootstrap = KafkaBroker.bootstrap();
        try (Admin admin = KafkaBroker.admin(bootstrap);
            CommittedReader reader = new CommittedReader(bootstrap, admin, Duration.ofMinutes(3));
            KafkaProducer<byte[], byte[]> producer = producer(bootstrap))
        {
            final String name = KafkaBroker.topic(admin, "weir-ckpt-reads", 1);
            final CheckpointTopic topic = new CheckpointTopic(name);
            final CheckpointIndex index = new CheckpointIndex(name, SOURCE);
            producer.initTransactions();

            commit(producer, topic, checkpoint(SOURCE, 0, 10, 100), checkpoint(SOURCE, 1, 20, 100), checkpoint("other", 0, 5, 100));
            index.catchUp(reader);
            assertEquals(3, index.recordsRead(), "the first read takes every committed record");
            assertEquals(Map.of(0, 10L, 1, 20L), offsets(index.newest()));

            producer.beginTransaction();
            topic.send(producer, checkpoint(SOURCE, 0, 99, 100));
            producer.abortTransaction();
            final PartitionCheckpoint big = checkpoint(SOURCE, 0, 30, 2 * CheckpointTopic.CHUNK_BYTES + 1000);
            commit(producer, topic, big);
            index.catchUp(reader);
            assertEquals(3 + 3, index.recordsRead(), "the second read takes only the three chunks committed since, not the aborted one");
            final Map<Integer, PartitionCheckpoint> second = index.newest();
            assertEquals(Map.of(0, 30L, 1, 20L), offsets(second), "the aborted checkpoint is not used");
            assertArrayEquals(big.engine(), second.get(0).engine(), "the three chunks put together");
            assertEquals(3 + 1, index.chunksHeld());

            commit(producer, topic, checkpoint(SOURCE, 0, 40, 100));
            index.catchUp(reader);
            assertEquals(6 + 1, index.recordsRead());
            assertEquals(Map.of(0, 40L, 1, 20L), offsets(index.newest()));
            assertEquals(2, index.chunksHeld(), "the chunks 1 and 2 of the superseded checkpoint are dropped");

            index.catchUp(reader);
            assertEquals(7, index.recordsRead(), "nothing committed since: nothing read");
            assertEquals(Map.of(0, 40L, 1, 20L), offsets(index.newest()));

            final Map<Integer, PartitionCheckpoint> whole = topic.readNewest(reader, SOURCE);
            assertEquals(offsets(whole), offsets(index.newest()), "a read of the whole topic gives the same");
            assertEquals(7, topic.recordsRead(), "a first read takes every committed record");
            commit(producer, topic, checkpoint(SOURCE, 2, 50, 100));
            assertEquals(Map.of(0, 40L, 1, 20L, 2, 50L), offsets(topic.readNewest(reader, SOURCE)));
            assertEquals(8, topic.recordsRead(), "the topic's next read takes only the record committed since");
        }
    }

    private static void commit(final KafkaProducer<byte[], byte[]> producer, final CheckpointTopic topic, final PartitionCheckpoint... checkpoints)
    {
        producer.beginTransaction();
        for (final PartitionCheckpoint checkpoint : checkpoints)
        {
            topic.send(producer, checkpoint);
        }
        producer.commitTransaction();
    }

    private static PartitionCheckpoint checkpoint(final String source, final int partition, final long offset, final int engineBytes)
    {
        final byte[] engine = new byte[engineBytes];
        for (int i = 0; i < engine.length; i++)
        {
            engine[i] = (byte)(i * 31 + offset);
        }
        return new PartitionCheckpoint(source, partition, offset, 0, 0, -1, 0, 1, 1, new TreeMap<>(), null, new long[0], engine);
    }

    private static Map<Integer, Long> offsets(final Map<Integer, PartitionCheckpoint> checkpoints)
    {
        final Map<Integer, Long> offsets = new TreeMap<>();
        checkpoints.forEach((partition, checkpoint) -> offsets.put(partition, checkpoint.kafkaOffset()));
        return offsets;
    }

    private static KafkaProducer<byte[], byte[]> producer(final String bootstrap)
    {
        final Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "weir-ckpt-reads-" + System.nanoTime());
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }
}
