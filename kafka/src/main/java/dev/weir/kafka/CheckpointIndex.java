package dev.weir.kafka;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * What an instance has read so far of its group's checkpoint topic for one source topic: the newest committed chunk
 * of each key {@code topic:partition:chunk} (as compaction would keep it) and the offset up to which the topic is
 * read, so that a takeover reads only the records committed after the previous one's read (issue 35). A read goes
 * up to the checkpoint topic's end as of the read, as {@link CommittedReader} decides it, so a takeover still sees
 * every checkpoint committed before it; records of aborted transactions are never handed to it. Chunks past the
 * newest chunk 0's count are dropped: no checkpoint can use them any more.
 * <p>
 * Not thread-safe: the instance's Kafka thread owns it; only {@link #recordsRead()} may be read by other threads.
 */
final class CheckpointIndex
{
    private final String checkpointTopic;
    private final String sourceTopic;
    private final String prefix;
    /** Source partition to chunk index to the chunk's record value. */
    private final Map<Integer, TreeMap<Integer, byte[]>> chunks = new HashMap<>();
    private long next;
    private volatile long recordsRead;

    /**
     * @param checkpointTopic the checkpoint topic's name.
     * @param sourceTopic     the source topic whose checkpoints are indexed.
     */
    CheckpointIndex(final String checkpointTopic, final String sourceTopic)
    {
        this.checkpointTopic = checkpointTopic;
        this.sourceTopic = sourceTopic;
        this.prefix = sourceTopic + ":";
    }

    /**
     * @return the source topic whose checkpoints are indexed.
     */
    String sourceTopic()
    {
        return sourceTopic;
    }

    /**
     * @return how many committed records of the checkpoint topic this index has read, over all its reads.
     */
    long recordsRead()
    {
        return recordsRead;
    }

    /**
     * @return how many chunks the index holds.
     */
    int chunksHeld()
    {
        int held = 0;
        for (final TreeMap<Integer, byte[]> partition : chunks.values())
        {
            held += partition.size();
        }
        return held;
    }

    /**
     * Read the records committed after the previous read, up to the checkpoint topic's end now. If the read fails,
     * the next one reads from the same offset again (a record read twice changes nothing: the newest wins).
     *
     * @param reader the reader of committed records.
     */
    void catchUp(final CommittedReader reader)
    {
        next = reader.read(new TopicPartition(checkpointTopic, 0), next, this::take);
        for (final TreeMap<Integer, byte[]> partition : chunks.values())
        {
            final byte[] first = partition.get(0);
            if (first != null && first.length >= Long.BYTES + 2 * Integer.BYTES)
            {
                partition.tailMap(Math.max(1, ByteBuffer.wrap(first).getInt(Long.BYTES + Integer.BYTES)), true).clear();
            }
        }
        chunks.values().removeIf(Map::isEmpty);
    }

    /**
     * @return partition to its newest checkpoint (a partition never checkpointed is absent), as read so far.
     * @throws IllegalStateException if a checkpoint is corrupt or incomplete.
     */
    Map<Integer, PartitionCheckpoint> newest()
    {
        final Map<Integer, PartitionCheckpoint> byPartition = new HashMap<>();
        for (final Map.Entry<Integer, TreeMap<Integer, byte[]>> entry : chunks.entrySet())
        {
            final int partition = entry.getKey();
            final byte[] firstChunk = entry.getValue().get(0);
            if (firstChunk == null)
            {
                continue;
            }
            final String key = prefix + partition + ":0";
            final ByteBuffer head = ByteBuffer.wrap(firstChunk);
            final long id = head.getLong();
            head.getInt();
            final int count = head.getInt();
            byte[] whole = new byte[0];
            for (int i = 0; i < count; i++)
            {
                final byte[] chunk = entry.getValue().get(i);
                final ByteBuffer in = chunk == null ? null : ByteBuffer.wrap(chunk);
                if (in == null || in.getLong() != id || in.getInt() != i)
                {
                    throw new IllegalStateException("the checkpoint of " + sourceTopic + "-" + partition + " in topic " + checkpointTopic
                        + " misses its chunk " + i);
                }
                in.getInt();
                final int at = whole.length;
                whole = Arrays.copyOf(whole, at + in.remaining());
                in.get(whole, at, in.remaining());
            }
            final PartitionCheckpoint checkpoint = PartitionCheckpoint.decode(whole, "the checkpoint keyed " + key + " in topic " + checkpointTopic);
            if (!checkpoint.topic().equals(sourceTopic) || checkpoint.partition() != partition)
            {
                throw new IllegalStateException("the checkpoint keyed " + key + " in topic " + checkpointTopic + " is of " + checkpoint.topic()
                    + "-" + checkpoint.partition());
            }
            byPartition.put(partition, checkpoint);
        }
        return byPartition;
    }

    private void take(final ConsumerRecord<byte[], byte[]> record)
    {
        recordsRead++;
        final String key = record.key() == null ? "" : new String(record.key(), StandardCharsets.UTF_8);
        if (!key.startsWith(prefix))
        {
            return;
        }
        final int colon = key.indexOf(':', prefix.length());
        final int partition;
        final int chunk;
        try
        {
            partition = Integer.parseInt(key.substring(prefix.length(), colon < 0 ? 0 : colon));
            chunk = Integer.parseInt(key.substring(colon + 1));
        }
        catch (final NumberFormatException | IndexOutOfBoundsException ex)
        {
            throw new IllegalStateException("the key " + key + " at offset " + record.offset() + " of topic " + checkpointTopic
                + " is not topic:partition:chunk", ex);
        }
        if (record.value() == null)
        {
            final TreeMap<Integer, byte[]> partitionChunks = chunks.get(partition);
            if (partitionChunks != null)
            {
                partitionChunks.remove(chunk);
            }
        }
        else
        {
            chunks.computeIfAbsent(partition, p -> new TreeMap<>()).put(chunk, record.value());
        }
    }
}
