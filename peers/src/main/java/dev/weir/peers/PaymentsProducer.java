package dev.weir.peers;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Produces an events CSV (such as {@code weir demo}'s {@code payments.csv}) to topic T, one record per line in file
 * order (the header skipped), record key = the line's key field (so the default partitioner spreads the keys, a
 * card always to the same partition), value = the line as it is; lines that Weir would reject are produced too
 * (key = their third field, or none), as a real topic would hold them. Then, on every partition of T, one
 * far-future record ({@code event_time} = the largest valid event time + {@code --sentinel-ms}, key
 * {@code sentinel}), so that each partition's last windows close in an engine whose watermark is per partition.
 * Idempotent producer, {@code acks=all}; a record the broker did not take (such as a batch that expired on a loaded
 * machine) fails the run (exit 1) instead of silently missing from the topic. Prints {@code produced N records in S s} to standard output.
 *
 * <p>Usage: {@code PaymentsProducer BOOTSTRAP T CSV [--sentinel-ms MS]} (default one hour; 0: no sentinels). A
 * tool, not a library.
 */
public final class PaymentsProducer
{
    private PaymentsProducer()
    {
    }

    /**
     * @param args see the class description.
     * @throws IOException if the CSV cannot be read.
     */
    public static void main(final String[] args) throws IOException
    {
        if (args.length < 3)
        {
            System.err.println("usage: PaymentsProducer BOOTSTRAP T CSV [--sentinel-ms MS]");
            System.exit(2);
        }
        final String topic = args[1];
        final long sentinelMs = args.length > 4 && "--sentinel-ms".equals(args[3]) ? Long.parseLong(args[4]) : 3_600_000L;
        final Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 600_000); // other engineers' load: retry long, never drop
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 60_000);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        final SendFailures failures = new SendFailures();
        final long start = System.nanoTime();
        long records = 0;
        long invalid = 0;
        long latest = -1;
        long lastId = 0;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p);
             BufferedReader in = Files.newBufferedReader(Path.of(args[2]), StandardCharsets.UTF_8))
        {
            String line = in.readLine();
            if (line != null && !line.startsWith("event_id,"))
            {
                throw new IOException(args[2] + " does not start with the header event_id,event_time,key,value");
            }
            while ((line = in.readLine()) != null)
            {
                final long time = PaymentLine.eventTime(line);
                String key = null;
                if (time == PaymentLine.INVALID)
                {
                    invalid++;
                    final String[] fields = line.split(",", -1);
                    key = fields.length > 2 ? fields[2] : null;
                }
                else
                {
                    key = PaymentLine.key(line);
                    latest = Math.max(latest, time);
                    lastId = Math.max(lastId, Long.parseLong(line.substring(0, line.indexOf(',')).trim()));
                }
                producer.send(new ProducerRecord<>(topic, key, line), failures);
                records++;
            }
            if (sentinelMs > 0 && latest >= 0)
            {
                final int partitions = producer.partitionsFor(topic).size();
                for (int partition = 0; partition < partitions; partition++)
                {
                    final String sentinel = (lastId + 1 + partition) + "," + (latest + sentinelMs) + ",sentinel,0";
                    producer.send(new ProducerRecord<>(topic, partition, "sentinel", sentinel), failures);
                }
            }
            producer.flush();
        }
        if (failures.count() > 0)
        {
            System.err.printf("PaymentsProducer: %d records were not written to %s; the first failure: %s%n",
                failures.count(), topic, failures.first());
            System.exit(1);
        }
        final double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("produced %d records (%d of them invalid lines) in %.1f s, %.0f records/s; largest event time %d%n",
            records, invalid, seconds, records / seconds, latest);
    }
}
