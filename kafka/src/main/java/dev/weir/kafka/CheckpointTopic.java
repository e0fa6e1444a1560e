package dev.weir.kafka;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The partitions' checkpoints in a compacted Kafka topic ({@code <group>-weir-checkpoints}, one partition), written
 * inside the transactions that commit the outputs they cover, so a checkpoint is visible exactly when its outputs
 * are. A checkpoint is split into chunks of at most {@value #CHUNK_BYTES} bytes (Kafka's default record limit is
 * about 1 MB), one record each, keyed {@code topic:partition:chunk} so that compaction keeps the newest of each.
 * A chunk's value: the checkpoint's random id int64, the chunk's index int32, the number of chunks int32, then
 * its bytes; a reader takes the newest chunk 0 and the chunks of the same id.
 * <p>
 * Not thread-safe: the instance's Kafka thread owns it; only {@link #recordsRead()} may be called from other threads.
 */
final class CheckpointTopic
{
    /** The most bytes of a checkpoint in one record. */
    static final int CHUNK_BYTES = 512 * 1024;
    private static final int CHUNK_HEADER = Long.BYTES + 2 * Integer.BYTES;

    private final String name;
    private volatile CheckpointIndex index;

    /**
     * @param name the topic's name.
     */
    CheckpointTopic(final String name)
    {
        this.name = name;
    }

    /**
     * @return the topic's name.
     */
    String name()
    {
        return name;
    }

    /**
     * Send a checkpoint's chunks, inside the producer's open transaction.
     *
     * @param producer   a transactional producer with a transaction open.
     * @param checkpoint the checkpoint.
     * @return its size in bytes.
     */
    int send(final Producer<byte[], byte[]> producer, final PartitionCheckpoint checkpoint)
    {
        final byte[] bytes = checkpoint.encode();
        final long id = ThreadLocalRandom.current().nextLong();
        final int chunks = Math.max(1, (bytes.length + CHUNK_BYTES - 1) / CHUNK_BYTES);
        for (int i = 0; i < chunks; i++)
        {
            final int from = i * CHUNK_BYTES;
            final int length = Math.min(CHUNK_BYTES, bytes.length - from);
            final ByteBuffer value = ByteBuffer.allocate(CHUNK_HEADER + length);
            value.putLong(id).putInt(i).putInt(chunks).put(bytes, from, length);
            producer.send(new ProducerRecord<>(name, 0, key(checkpoint.topic(), checkpoint.partition(), i), value.array()));
        }
        return bytes.length;
    }

    /**
     * Read the newest committed checkpoint of each partition of a source topic. The topic is read from where the
     * previous call left it, up to its end now (see {@link CheckpointIndex}): the first call reads it all, the next
     * ones only what was committed since.
     *
     * @param reader the reader of committed records.
     * @param topic  the source topic.
     * @return partition to its newest checkpoint (a partition never checkpointed is absent).
     * @throws IllegalStateException if a checkpoint is corrupt or incomplete.
     */
    Map<Integer, PartitionCheckpoint> readNewest(final CommittedReader reader, final String topic)
    {
        if (index == null || !index.sourceTopic().equals(topic))
        {
            index = new CheckpointIndex(name, topic);
        }
        index.catchUp(reader);
        return index.newest();
    }

    /**
     * @return how many committed records {@link #readNewest} has read, over all its calls (any thread may ask).
     */
    long recordsRead()
    {
        final CheckpointIndex read = index;
        return read == null ? 0 : read.recordsRead();
    }

    private static byte[] key(final String topic, final int partition, final int chunk)
    {
        return (topic + ":" + partition + ":" + chunk).getBytes(StandardCharsets.UTF_8);
    }
}
