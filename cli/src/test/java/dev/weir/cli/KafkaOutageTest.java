package dev.weir.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import dev.weir.testsupport.KillHarness;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The broker goes down under a running instance: {@code scripts/test-kafka.sh} stops it (SIGTERM) while the
 * instance has committed the first third of the records and restarts it 5 s later; the rest is produced meanwhile,
 * in slices. The instance rides the outage out and every row is committed once, equal to a bounded run of each
 * partition's records as the topic holds them. The records are produced by a {@link Feeder}, which replaces a
 * producer that failed to deliver and sends again what did not land. Runs only against the broker the script
 * started (its pid file, its port: {@code WEIR_KAFKA_DIR}, {@code WEIR_KAFKA_PORT}), which it may stop.
 */
@Tag("slow")
final class KafkaOutageTest
{
    private static final int PARTITIONS = 3;

    @TempDir
    Path dir;

    @Test
    void anInstanceRidesABrokerOutageOut() throws Exception
    {
        final Path script = Path.of("..", "scripts", "test-kafka.sh").toAbsolutePath().normalize();
        final Path pidFile = Path.of(System.getenv().getOrDefault("WEIR_KAFKA_DIR", System.getProperty("java.io.tmpdir") + "/weir-kafka"), "broker.pid");
        final String port = System.getenv().getOrDefault("WEIR_KAFKA_PORT", "39092");
        try (KafkaCluster kafka = new KafkaCluster())
        {
            assumeTrue(Files.exists(script) && Files.exists(pidFile) && kafka.bootstrap.equals("127.0.0.1:" + port),
                "the broker is not the one scripts/test-kafka.sh started here (WEIR_KAFKA_DIR, WEIR_KAFKA_PORT): not stopping it");
            final String topic = kafka.topic("weir-outage", PARTITIONS);
            final List<KafkaCluster.Line> lines = KafkaCluster.payments(PARTITIONS, 60_000, 4_000, 21);
            final int third = lines.size() / 3;
            final Feeder feeder = new Feeder(kafka.bootstrap, topic);
            feeder.send(lines.subList(0, third));
            final List<String> args = new ArrayList<>(List.of("run", "--kafka", kafka.bootstrap, "--topic", topic, "--group", "g-" + topic,
                "--output-topic", topic + "-out", "--instance", "survivor", "--journal", dir.resolve("survivor").toString(),
                "--checkpoint-every", "5000"));
            args.addAll(List.of(KafkaCluster.WINDOW_FLAGS));
            final Process instance = KillHarness.startChild(args.toArray(String[]::new), dir.resolve("survivor.log"));
            // the rest arrives in slices over about 4 s; the broker goes down 1 s into it, mid-transaction, for about 10 s
            final Thread producer = new Thread(() ->
            {
                final int slices = 20;
                final List<KafkaCluster.Line> rest = lines.subList(third, lines.size());
                for (int s = 0; s < slices; s++)
                {
                    feeder.send(rest.subList(s * rest.size() / slices, (s + 1) * rest.size() / slices));
                    KafkaCluster.pause(200);
                }
            }, "test-producer");
            try
            {
                awaitLag0(dir.resolve("survivor"), third);
                producer.start();
                Thread.sleep(1_000);
                assertEquals(0, script(script, "stop"), "the broker stops");
                Thread.sleep(5_000);
                assertEquals(0, script(script, "start"), "the broker starts again");
                producer.join();
                feeder.fill(lines);
                awaitLag0(dir.resolve("survivor"), lines.size());
                assertTrue(instance.isAlive(), () -> "the instance rode the outage out: " + log(dir.resolve("survivor.log")));
            }
            finally
            {
                producer.join();
                if (!KafkaClusterBroker.answers(kafka.bootstrap))
                {
                    script(script, "start");
                }
                feeder.close();
                instance.destroy();
                instance.waitFor(60, TimeUnit.SECONDS);
            }
            System.err.println("KafkaOutageTest: the feeder renewed its producer " + feeder.renewals + " times and sent "
                + feeder.resent + " records again; the instance's failed transactions:\n" + Files.readAllLines(dir.resolve("survivor.log")).stream()
                .filter(l -> l.contains("the transaction failed") || l.contains("aborting the transaction failed")).collect(Collectors.joining("\n")));
            // the rows of the records as the topic holds them: one that landed twice, or out of order, is read so by the instance too
            final Map<Integer, KafkaCluster.Rows> expected = KafkaCluster.reference(dir, feeder.landed(), PARTITIONS);
            final long count = expected.values().stream().mapToLong(r -> r.results().size() + r.late().size()).sum();
            final Map<Integer, KafkaCluster.Rows> committed = kafka.committed(topic, topic + "-out", PARTITIONS, count, Duration.ofMinutes(2));
            for (int p = 0; p < PARTITIONS; p++)
            {
                KillHarness.assertSameLines("results of partition " + p, expected.get(p).results(), committed.get(p).results());
                KillHarness.assertSameLines("late events of partition " + p, expected.get(p).late(), committed.get(p).late());
            }
        }
    }

    private static int script(final Path script, final String command) throws Exception
    {
        final Process process = new ProcessBuilder("bash", script.toString(), command).inheritIO().start();
        return process.waitFor(120, TimeUnit.SECONDS) ? process.exitValue() : -1;
    }

    private static String log(final Path file)
    {
        try
        {
            final List<String> lines = Files.readAllLines(file);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        }
        catch (final java.io.IOException ex)
        {
            return ex.toString();
        }
    }

    /** Wait until the instance has read at least {@code records} records and every partition to its end. */
    private static void awaitLag0(final Path journal, final long records) throws Exception
    {
        final java.util.regex.Pattern events = java.util.regex.Pattern.compile(" events (\\d+) ");
        final Path status = journal.resolve("kafka").resolve("status");
        int caughtUp = 0;
        for (int i = 0; i < 1800 && caughtUp < 3; i++)
        {
            Thread.sleep(100);
            if (Files.exists(status))
            {
                final List<String> lines = Files.readAllLines(status);
                final long idle = lines.stream().filter(l -> l.contains(" lag=0 ")).count();
                final java.util.regex.Matcher read = events.matcher(lines.isEmpty() ? "" : lines.get(0));
                final boolean allRead = read.find() && Long.parseLong(read.group(1)) >= records;
                caughtUp = allRead && lines.size() == PARTITIONS + 1 && idle == PARTITIONS ? caughtUp + 1 : 0;
            }
        }
        assertTrue(caughtUp >= 3, () -> "the instance caught up with " + PARTITIONS + " partitions: " + status);
    }

    /**
     * Produces the test's records with an idempotent producer, and makes sure each lands. A producer whose sends fail
     * or do not complete within a bound (after a broker restart, an idempotent producer can retry a batch with
     * {@code OUT_OF_ORDER_SEQUENCE_NUMBER} until its delivery timeout, KAFKA-14359) is closed and replaced; the
     * records that did not land are then sent again by {@link #fill(List)}, which reads the topic to see which.
     * Used by one thread at a time.
     */
    private static final class Feeder implements AutoCloseable
    {
        private final String bootstrap;
        private final String topic;
        private KafkaProducer<byte[], byte[]> producer;
        private volatile int renewals;
        private volatile int resent;

        Feeder(final String bootstrap, final String topic)
        {
            this.bootstrap = bootstrap;
            this.topic = topic;
            this.producer = newProducer();
        }

        private KafkaProducer<byte[], byte[]> newProducer()
        {
            final Properties config = new Properties();
            config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
            config.put(ProducerConfig.LINGER_MS_CONFIG, "5");
            config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
            config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
            return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
        }

        /** Send the lines; unless all are acknowledged within 60 s, replace the producer (what did not land is for {@link #fill}). */
        void send(final List<KafkaCluster.Line> lines)
        {
            final List<Future<RecordMetadata>> sends = new ArrayList<>(lines.size());
            for (final KafkaCluster.Line line : lines)
            {
                sends.add(producer.send(new ProducerRecord<>(topic, line.partition(), line.key().getBytes(StandardCharsets.UTF_8),
                    line.value().getBytes(StandardCharsets.UTF_8))));
            }
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            try
            {
                for (final Future<RecordMetadata> send : sends)
                {
                    send.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                }
            }
            catch (final ExecutionException | java.util.concurrent.TimeoutException ex)
            {
                System.err.println("KafkaOutageTest: the feeder's producer failed to deliver (" + ex + "): a new producer goes on");
                renew();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(ex);
            }
        }

        /** Close the producer (what it has not sent is dropped) and open a new one. */
        void renew()
        {
            producer.close(Duration.ofSeconds(5));
            producer = newProducer();
            renewals++;
        }

        /** A new producer, then send again, in order, every line whose record is not in the topic, until all are. */
        void fill(final List<KafkaCluster.Line> lines)
        {
            renew();
            for (int attempt = 0; attempt < 5; attempt++)
            {
                final Set<String> landed = new HashSet<>();
                for (final KafkaCluster.Line line : landed())
                {
                    landed.add(line.partition() + ":" + line.value());
                }
                final List<KafkaCluster.Line> missing = lines.stream().filter(l -> !landed.contains(l.partition() + ":" + l.value())).toList();
                if (missing.isEmpty())
                {
                    return;
                }
                System.err.println("KafkaOutageTest: " + missing.size() + " records did not land: sending them again");
                resent += missing.size();
                send(missing);
            }
            throw new AssertionError("the test's records did not all land in the topic");
        }

        /** @return the records the topic holds, in each partition's order. */
        List<KafkaCluster.Line> landed()
        {
            final Properties config = new Properties();
            config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
            config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
            final List<KafkaCluster.Line> lines = new ArrayList<>();
            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer()))
            {
                final List<TopicPartition> partitions = consumer.partitionsFor(topic).stream().map(p -> new TopicPartition(topic, p.partition())).toList();
                final Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
                for (final TopicPartition partition : partitions)
                {
                    consumer.assign(List.of(partition));
                    consumer.seekToBeginning(List.of(partition));
                    while (consumer.position(partition) < ends.get(partition))
                    {
                        for (final ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200)))
                        {
                            lines.add(new KafkaCluster.Line(r.partition(), new String(r.key(), StandardCharsets.UTF_8),
                                new String(r.value(), StandardCharsets.UTF_8)));
                        }
                    }
                }
            }
            return lines;
        }

        @Override
        public void close()
        {
            producer.close(Duration.ofSeconds(5));
        }
    }

    /** Whether the broker answers. */
    private static final class KafkaClusterBroker
    {
        static boolean answers(final String bootstrap)
        {
            final String[] hostPort = bootstrap.split(",")[0].split(":");
            try (java.net.Socket socket = new java.net.Socket())
            {
                socket.connect(new java.net.InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1])), 1000);
                return true;
            }
            catch (final java.io.IOException ex)
            {
                return false;
            }
        }
    }
}
