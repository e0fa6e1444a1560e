package dev.weir.peers;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Watches a job's output topic O with {@code isolation.level=read_committed} (all partitions assigned, no group, from
 * the beginning) and notes the wall-clock moment each committed row arrives, until no new row has arrived for
 * {@code QUIET_MS} after the first one (or {@code TIMEOUT_MS} passed). Started before the job, it tells when the
 * job's last result was committed (to within one poll). Prints to standard output one line
 * {@code rows=N first_ms=T1 last_ms=T2} (epoch milliseconds; 0 when no row came).
 *
 * <p>Usage: {@code OutputWatch BOOTSTRAP O QUIET_MS TIMEOUT_MS [ROWS_FILE]}; with {@code ROWS_FILE}, the rows (record
 * values) are also written there, one a line, in arrival order. A tool, not a library.
 */
public final class OutputWatch
{
    private OutputWatch()
    {
    }

    /**
     * @param args see the class description.
     * @throws IOException if the rows file cannot be written.
     */
    public static void main(final String[] args) throws IOException
    {
        if (args.length < 4)
        {
            System.err.println("usage: OutputWatch BOOTSTRAP O QUIET_MS TIMEOUT_MS [ROWS_FILE]");
            System.exit(2);
        }
        final long quietMs = Long.parseLong(args[2]);
        final long deadline = System.currentTimeMillis() + Long.parseLong(args[3]);
        long rows = 0;
        long first = 0;
        long last = 0;
        try (KafkaConsumer<String, String> consumer = committedReader(args[0]);
             Writer rowsFile = args.length > 4 ? Files.newBufferedWriter(Path.of(args[4]), StandardCharsets.UTF_8) : Writer.nullWriter())
        {
            final List<TopicPartition> partitions = new ArrayList<>();
            for (final PartitionInfo info : consumer.partitionsFor(args[1]))
            {
                partitions.add(new TopicPartition(args[1], info.partition()));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (true)
            {
                final ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(50));
                final long now = System.currentTimeMillis();
                if (!records.isEmpty())
                {
                    rows += records.count();
                    for (final ConsumerRecord<String, String> record : records)
                    {
                        rowsFile.write(record.value());
                        rowsFile.write('\n');
                    }
                    first = first == 0 ? now : first;
                    last = now;
                }
                if (first != 0 && now - last >= quietMs || now >= deadline)
                {
                    break;
                }
            }
        }
        System.out.printf("rows=%d first_ms=%d last_ms=%d%n", rows, first, last);
    }

    /**
     * @param bootstrap the broker.
     * @return a consumer of committed data only, without a group, reading from the beginning.
     */
    static KafkaConsumer<String, String> committedReader(final String bootstrap)
    {
        final Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        return new KafkaConsumer<>(p);
    }
}
