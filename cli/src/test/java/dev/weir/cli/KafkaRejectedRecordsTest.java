package dev.weir.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import dev.weir.kafka.OutputHeaders;
import dev.weir.test.kafka.KafkaTestBroker;
import dev.weir.test.kafka.TopicRecord;
import dev.weir.testsupport.KillHarness;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Records {@code weir run --kafka} cannot read, between good ones on one partition: a value of 1,048,400 bytes (the
 * broker takes it; forwarded whole, it would not fit the instance's own transaction), a null value and a value that
 * is not UTF-8. Each is rejected once, with its partition, offset and reason, the huge one kept to its first 1,024
 * bytes, and the partition goes on: the rows committed equal a bounded run of the good records.
 */
@Tag("slow")
final class KafkaRejectedRecordsTest
{
    private static final int HUGE = 1_048_400;
    private static final String[] WINDOW = {"--window", "tumbling:1s", "--out-of-orderness", "0s"};

    @TempDir
    Path dir;

    @Test
    void aHugeRecordANullValueAndBadUtf8AreEachRejectedOnceAndThePartitionGoesOn() throws Exception
    {
        try (KafkaCluster kafka = new KafkaCluster())
        {
            final String topic = kafka.topic("weir-rejects", 1);
            final List<String> good = new ArrayList<>();
            final List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
            for (int i = 0; i < 400; i++)
            {
                if (i == 200)
                {
                    final String start = i + "," + (KafkaCluster.START + i * 100L) + ",a,";
                    records.add(record(topic, "a", (start + "9".repeat(HUGE - start.length())).getBytes(StandardCharsets.US_ASCII)));
                    records.add(record(topic, "a", null));
                    records.add(record(topic, "a", new byte[] {'2', '0', '2', ',', (byte)0xC3, (byte)0x28, ',', 'a', ',', '1'}));
                }
                final String key = i % 3 == 0 ? "a" : "b";
                final String line = i + "," + (KafkaCluster.START + i * 100L) + "," + key + "," + (i + 1);
                good.add(line);
                records.add(record(topic, key, line.getBytes(StandardCharsets.UTF_8)));
            }
            final String flush = "-1," + KafkaCluster.FLUSH_TIME + ",flush,0";
            records.add(record(topic, "flush", flush.getBytes(StandardCharsets.UTF_8)));
            produce(kafka.bootstrap, records);

            final Path journal = dir.resolve("a");
            final Path log = dir.resolve("a.log");
            final List<String> args = new ArrayList<>(List.of("run", "--kafka", kafka.bootstrap, "--topic", topic, "--group", "g-" + topic,
                "--output-topic", topic + "-out", "--instance", "a", "--journal", journal.toString(), "--checkpoint-every", "50"));
            args.addAll(List.of(WINDOW));
            final Process instance = KillHarness.startChild(args.toArray(String[]::new), log);
            try
            {
                KafkaCluster.awaitCaughtUp(instance, log, journal, 1, records.size());
                instance.destroy(); // SIGTERM: the partition's work is committed
                assertTrue(instance.waitFor(120, TimeUnit.SECONDS), "the instance stops");
                assertEquals(143, instance.exitValue(), () -> "SIGTERM stops the instance, nothing else did: " + KafkaCluster.tail(log));
            }
            finally
            {
                instance.destroyForcibly();
            }

            final List<TopicRecord> rejected = KafkaTestBroker.readCommitted(topic + "-out-rejected", -1, Duration.ofSeconds(3));
            assertEquals(List.of("200", "201", "202"), rejected.stream().map(r -> r.header(OutputHeaders.OFFSET)).sorted().toList(),
                () -> "each bad record rejected once: " + rejected);
            for (final TopicRecord r : rejected)
            {
                assertEquals(topic + ":0", r.header(OutputHeaders.SOURCE));
                assertEquals("a", r.key());
                switch (r.header(OutputHeaders.OFFSET))
                {
                    case "200" ->
                    {
                        assertEquals("line too long: " + HUGE + " bytes, the limit is 65536", r.header(OutputHeaders.REASON));
                        assertTrue(r.value().startsWith("200,"), r::toString);
                        assertTrue(r.value().endsWith("9... (" + HUGE + " bytes in all; the first 1024 bytes are kept)"), r::toString);
                        assertEquals(1024, r.value().indexOf("..."), "the first 1,024 bytes are kept");
                    }
                    case "201" ->
                    {
                        assertEquals("no value", r.header(OutputHeaders.REASON));
                        assertNull(r.value(), "a null value stays null");
                    }
                    default ->
                    {
                        assertEquals("invalid UTF-8", r.header(OutputHeaders.REASON));
                        assertEquals(new String(new byte[] {'2', '0', '2', ',', (byte)0xC3, (byte)0x28, ',', 'a', ',', '1'}, StandardCharsets.UTF_8),
                            r.value(), "a short value is forwarded as it was");
                    }
                }
            }

            final List<String> expected = reference(good);
            final Map<Integer, KafkaCluster.Rows> committed = kafka.committed(topic, topic + "-out", 1, expected.size(), Duration.ofMinutes(2));
            assertTrue(expected.size() > 60, "rows after the bad records too: " + expected.size());
            KillHarness.assertSameLines("the partition's rows", expected, committed.get(0).results());
        }
    }

    private static ProducerRecord<byte[], byte[]> record(final String topic, final String key, final byte[] value)
    {
        return new ProducerRecord<>(topic, 0, key.getBytes(StandardCharsets.UTF_8), value);
    }

    /** With the plain producer: {@code weir produce} refuses lines over 64 KiB. */
    private static void produce(final String bootstrap, final List<ProducerRecord<byte[], byte[]>> records) throws Exception
    {
        final Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        config.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(2 * 1024 * 1024));
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer()))
        {
            for (final ProducerRecord<byte[], byte[]> record : records)
            {
                producer.send(record).get(60, TimeUnit.SECONDS); // one at a time: the huge one is accepted, or this fails here
            }
        }
    }

    /** The rows of a bounded run of the good records, less the flush record's. */
    private List<String> reference(final List<String> good) throws Exception
    {
        final Path input = dir.resolve("good.csv");
        final List<String> csv = new ArrayList<>(List.of("event_id,event_time,key,value"));
        csv.addAll(good);
        Files.write(input, csv, StandardCharsets.UTF_8);
        final Path results = dir.resolve("good.results.csv");
        final List<String> args = new ArrayList<>(List.of("run", "--input", input.toString(), "--results", results.toString()));
        args.addAll(Arrays.asList(WINDOW));
        final Cli run = Cli.run(args.toArray(String[]::new));
        assertEquals(0, run.exit(), run::err);
        final List<String> rows = Files.readAllLines(results);
        return rows.subList(1, rows.size());
    }
}
