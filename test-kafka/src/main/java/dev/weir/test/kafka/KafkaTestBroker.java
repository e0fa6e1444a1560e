package dev.weir.test.kafka;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Assumptions;

/**
 * The Kafka broker Weir's tests run against: {@code WEIR_KAFKA_BOOTSTRAP}, by default {@code 127.0.0.1:39092}, the
 * one {@code scripts/test-kafka.sh start} runs ({@code ./weir test} starts it and sets {@code WEIR_REQUIRE_KAFKA=1}).
 * <p>
 * {@link #bootstrap()} asks the broker for its cluster once per JVM. When it does not answer, a test is skipped with
 * a message (a JUnit assumption), unless {@code WEIR_REQUIRE_KAFKA=1}, which makes it fail instead.
 * <p>
 * The broker may be shared by other tests and other people: {@link #createTopic(String, int)} and
 * {@link #uniqueName(String)} give every topic and group a name of its own. Topics are never deleted here.
 * Stateless apart from the cached answer; thread-safe.
 */
public final class KafkaTestBroker
{
    /** The environment variable naming the broker (host:port). */
    public static final String BOOTSTRAP_VARIABLE = "WEIR_KAFKA_BOOTSTRAP";
    /** The environment variable that makes a missing broker fail the tests rather than skip them. */
    public static final String REQUIRE_VARIABLE = "WEIR_REQUIRE_KAFKA";
    /** The broker of {@code scripts/test-kafka.sh}. */
    public static final String DEFAULT_BOOTSTRAP = "127.0.0.1:39092";

    private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(10);
    /** How long a broker whose port is open may take to answer: a broker just started on a busy machine is slow. */
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Object LOCK = new Object();
    private static String unreachable;
    private static boolean checked;

    private KafkaTestBroker()
    {
    }

    /**
     * @return the broker's bootstrap servers ({@code host:port}); skips (or, with {@code WEIR_REQUIRE_KAFKA=1},
     *         fails) the calling test when the broker does not answer.
     */
    public static String bootstrap()
    {
        final String servers = servers();
        final String problem;
        synchronized (LOCK)
        {
            if (!checked)
            {
                unreachable = ask(servers);
                checked = true;
            }
            problem = unreachable;
        }
        if (problem != null)
        {
            final String message = "no Kafka broker at " + servers + " (" + problem + "); run scripts/test-kafka.sh start, or set "
                + BOOTSTRAP_VARIABLE;
            if ("1".equals(System.getenv(REQUIRE_VARIABLE)))
            {
                fail(message + " -- " + REQUIRE_VARIABLE + "=1, so this fails rather than skips");
            }
            System.err.println("SKIPPED (set " + REQUIRE_VARIABLE + "=1 to fail instead): " + message);
            Assumptions.abort(message);
            throw new AssertionError("unreachable");
        }
        return servers;
    }

    /**
     * @param prefix what the name starts with, e.g. the test's name.
     * @return {@code prefix-} followed by 12 random hexadecimal digits: a topic, group or transactional id no other
     *         test (or person) uses.
     */
    public static String uniqueName(final String prefix)
    {
        return prefix + "-" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    /**
     * Create a topic of a unique name and wait until the broker has created it.
     *
     * @param prefix     what its name starts with.
     * @param partitions how many partitions it has.
     * @return its name.
     */
    public static String createTopic(final String prefix, final int partitions)
    {
        final String topic = uniqueName(prefix);
        try (Admin admin = Admin.create(adminProperties(bootstrap())))
        {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short)1))).all().get(30, TimeUnit.SECONDS);
            awaitLeaders(admin, topic, partitions);
        }
        catch (final ExecutionException | TimeoutException ex)
        {
            throw new IllegalStateException("cannot create topic " + topic + " with " + partitions + " partitions", ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted creating topic " + topic, ex);
        }
        return topic;
    }

    /**
     * Read every partition of a topic from its beginning with {@code isolation.level=read_committed} (no group:
     * the partitions are assigned): first every record committed when the read starts (up to the read-committed end
     * offsets, however long a busy machine takes, up to 5 minutes), then any that follow, until {@code count} records
     * are read or none arrived for {@code quiet}.
     *
     * @param topic a topic.
     * @param count stop once this many records are read; negative for no count (read until quiet).
     * @param quiet once the records committed at the start are read, stop when no record arrived for this long.
     * @return the records, in the order read: by offset within each partition, partitions interleaved.
     */
    public static List<TopicRecord> readCommitted(final String topic, final int count, final Duration quiet)
    {
        final Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        final List<TopicRecord> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties))
        {
            final List<TopicPartition> partitions = new ArrayList<>();
            for (final PartitionInfo info : consumer.partitionsFor(topic, Duration.ofSeconds(30)))
            {
                partitions.add(new TopicPartition(topic, info.partition()));
            }
            if (partitions.isEmpty())
            {
                throw new IllegalStateException("no topic " + topic + " at " + properties.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            // what is committed already is read however slow the machine (a first fetch can take seconds under load,
            // longer than a quiet period); only what may still follow is bounded by the quiet period
            final Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(60));
            final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            while ((count < 0 || records.size() < count) && !reached(consumer, end))
            {
                if (System.nanoTime() - deadline > 0)
                {
                    throw new IllegalStateException("topic " + topic + ": the records committed up to " + end + " were not read within 5 minutes");
                }
                poll(consumer, records);
            }
            long lastArrival = System.nanoTime();
            while ((count < 0 || records.size() < count) && System.nanoTime() - lastArrival < quiet.toNanos())
            {
                if (poll(consumer, records))
                {
                    lastArrival = System.nanoTime();
                }
            }
        }
        return records;
    }

    private static boolean poll(final KafkaConsumer<byte[], byte[]> consumer, final List<TopicRecord> records)
    {
        final ConsumerRecords<byte[], byte[]> polled = consumer.poll(POLL);
        for (final ConsumerRecord<byte[], byte[]> record : polled)
        {
            records.add(new TopicRecord(record.partition(), record.offset(), record.timestamp(), text(record.key()), text(record.value()),
                headers(record)));
        }
        return !polled.isEmpty();
    }

    private static boolean reached(final KafkaConsumer<byte[], byte[]> consumer, final Map<TopicPartition, Long> end)
    {
        for (final Map.Entry<TopicPartition, Long> partition : end.entrySet())
        {
            if (consumer.position(partition.getKey()) < partition.getValue())
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @param bootstrap the broker's bootstrap servers.
     * @return the properties of an admin client for it, that gives up on a request after 30 s.
     */
    public static Properties adminProperties(final String bootstrap)
    {
        final Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000");
        properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        return properties;
    }

    /**
     * Wait until the leader of every partition of a new topic answers (a ListOffsets request goes to the leader): a
     * broker reports a new partition's leader before that leader takes requests, and an idempotent producer whose
     * first batch meets NOT_LEADER_OR_FOLLOWER while a later batch is appended retries it out of sequence until its
     * delivery times out (seen with Kafka 4.4).
     */
    private static void awaitLeaders(final Admin admin, final String topic, final int partitions)
        throws ExecutionException, TimeoutException, InterruptedException
    {
        final Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (int p = 0; p < partitions; p++)
        {
            latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true)
        {
            try
            {
                admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS);
                return;
            }
            catch (final ExecutionException ex)
            {
                if (!(ex.getCause() instanceof RetriableException) || System.nanoTime() > deadline)
                {
                    throw ex;
                }
                Thread.sleep(100);
            }
        }
    }

    private static String servers()
    {
        final String given = System.getenv(BOOTSTRAP_VARIABLE);
        return given == null || given.isBlank() ? DEFAULT_BOOTSTRAP : given.trim();
    }

    /**
     * @return null if the broker answers a describe-cluster request, else why not: asked again for up to
     *         {@link #READY_TIMEOUT} while its port accepts connections (a broker starting up), given up at once when
     *         nothing listens there.
     */
    private static String ask(final String servers)
    {
        final long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (true)
        {
            final String problem = askOnce(servers);
            if (problem == null || !listening(servers) || System.nanoTime() > deadline || Thread.currentThread().isInterrupted())
            {
                return problem;
            }
            System.err.println("the Kafka broker at " + servers + " accepts connections but does not answer yet (" + problem + "): asking again");
        }
    }

    private static boolean listening(final String servers)
    {
        final String first = servers.split(",")[0].trim();
        final int colon = first.lastIndexOf(':');
        if (colon < 0)
        {
            return false;
        }
        try (Socket socket = new Socket())
        {
            socket.connect(new InetSocketAddress(first.substring(0, colon), Integer.parseInt(first.substring(colon + 1))), 2_000);
            return true;
        }
        catch (final IOException | RuntimeException ex)
        {
            return false;
        }
    }

    private static String askOnce(final String servers)
    {
        final Properties properties = adminProperties(servers);
        final int timeout = (int)ANSWER_TIMEOUT.toMillis();
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, String.valueOf(timeout));
        properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, String.valueOf(timeout));
        properties.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "500");
        Admin admin = null;
        try
        {
            admin = Admin.create(properties);
            admin.describeCluster().clusterId().get(timeout, TimeUnit.MILLISECONDS);
            return null;
        }
        catch (final ExecutionException ex)
        {
            return String.valueOf(ex.getCause());
        }
        catch (final TimeoutException ex)
        {
            return "no answer within " + ANSWER_TIMEOUT.toSeconds() + " s";
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
        catch (final RuntimeException ex)
        {
            return String.valueOf(ex);
        }
        finally
        {
            if (admin != null)
            {
                admin.close(Duration.ofSeconds(1)); // not the default, which waits for a request still unanswered
            }
        }
    }

    private static Map<String, String> headers(final ConsumerRecord<byte[], byte[]> record)
    {
        final Map<String, String> headers = new LinkedHashMap<>();
        for (final Header header : record.headers())
        {
            headers.put(header.key(), text(header.value()));
        }
        return headers;
    }

    private static String text(final byte[] bytes)
    {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
}
