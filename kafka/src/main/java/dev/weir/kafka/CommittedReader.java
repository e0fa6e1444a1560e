package dev.weir.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads what is committed in one topic partition, from an offset up to everything written before the read began:
 * the records of every transaction that had written there by then, once each is committed or aborted. A
 * {@code read_committed} consumer stops at the partition's last stable offset while a transaction is open, and a
 * committed transaction may lie beyond an open one; so the reader notes the partition's high watermark first and
 * reads until its position passes it, waiting for open transactions to end (an instance killed mid-transaction:
 * until the transaction times out, or the instance restarts and aborts it).
 * <p>
 * Not thread-safe: the instance's Kafka thread owns it.
 */
final class CommittedReader implements AutoCloseable
{
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Admin admin;
    private final Duration patience;

    /**
     * @param bootstrap the brokers.
     * @param admin     an admin client of the same cluster (not closed by this reader).
     * @param patience  how long to wait for open transactions to end before giving up.
     */
    CommittedReader(final String bootstrap, final Admin admin, final Duration patience)
    {
        final Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
        this.consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.admin = admin;
        this.patience = patience;
    }

    /**
     * Hand every committed record of {@code partition} at or after {@code from} and before its high watermark now.
     *
     * @param partition a topic partition.
     * @param from      the first offset to read (0 for the start; an offset before the log start reads from there).
     * @param handler   told of each record, in offset order.
     * @return the offset the next read may start from to miss nothing: the high watermark the read went up to (or
     *         {@code from} if that is beyond it).
     * @throws IllegalStateException if open transactions do not end within the patience.
     */
    long read(final TopicPartition partition, final long from, final Consumer<ConsumerRecord<byte[], byte[]>> handler)
    {
        final long end = highWatermark(partition);
        if (from >= end)
        {
            return from;
        }
        consumer.assign(List.of(partition));
        final long start = Math.max(from, consumer.beginningOffsets(List.of(partition)).get(partition));
        consumer.seek(partition, start);
        final long deadline = System.nanoTime() + patience.toNanos();
        while (consumer.position(partition) < end)
        {
            for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200)))
            {
                if (record.offset() < end)
                {
                    handler.accept(record);
                }
            }
            if (System.nanoTime() > deadline)
            {
                throw new IllegalStateException("the committed records of " + partition + " up to offset " + end
                    + " could not be read within " + patience.toSeconds() + " s (position " + consumer.position(partition)
                    + "): a transaction stays open there");
            }
        }
        consumer.assign(List.of());
        return end;
    }

    private long highWatermark(final TopicPartition partition)
    {
        try
        {
            return admin.listOffsets(Map.of(partition, OffsetSpec.latest()), new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED))
                .partitionResult(partition).get().offset();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the end of " + partition, ex);
        }
        catch (final ExecutionException ex)
        {
            throw new IllegalStateException("cannot read the end of " + partition + ": " + ex.getCause(), ex.getCause());
        }
    }

    @Override
    public void close()
    {
        consumer.close(Duration.ofSeconds(5));
    }
}
