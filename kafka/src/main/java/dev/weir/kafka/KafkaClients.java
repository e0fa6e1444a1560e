package dev.weir.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka clients of one instance: the admin client, which creates the output, rejected and checkpoint topics
 * when missing and waits for their leaders; the group's {@code read_committed} consumer, whose
 * {@link TrackingAssignor} tells {@link #rebalances()} when it rejoins the group; the reader of committed
 * records; and its transactional producers ({@link #newProducer()}, owned by the {@link TransactionCoordinator}).
 * <p>
 * Not thread-safe: the instance's Kafka thread owns it, except {@link #wakeup()}, callable from any thread.
 */
final class KafkaClients implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(KafkaClients.class);
    private static final Duration LEADERS_TIMEOUT = Duration.ofMinutes(1);

    private final KafkaRun.Settings settings;
    private final String name;
    private final Admin admin;
    private final RebalanceTracker rebalances;
    private volatile KafkaConsumer<byte[], byte[]> consumer;
    private CommittedReader committedReader;

    /**
     * Open the admin client (nothing is asked of the brokers yet).
     *
     * @param settings what the instance runs with.
     * @param name     the instance's name: the consumer's client id.
     */
    KafkaClients(final KafkaRun.Settings settings, final String name)
    {
        this.settings = settings;
        this.name = name;
        final Properties adminConfig = new Properties();
        adminConfig.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrap());
        this.admin = Admin.create(adminConfig);
        this.rebalances = new RebalanceTracker(settings.transactionTimeout());
    }

    /**
     * Create the output and rejected topics (with the source topic's partition count) and the compacted checkpoint
     * topic when missing, wait for their leaders, then open the consumer and the committed reader.
     *
     * @throws IllegalStateException if a topic cannot be described or created, or its partitions have no leader.
     */
    void open()
    {
        final int partitions = partitionCount(settings.topic());
        createIfMissing(new NewTopic(settings.outputTopic(), Optional.of(partitions), Optional.empty()));
        createIfMissing(new NewTopic(settings.rejectedTopic(), Optional.of(partitions), Optional.empty()));
        createIfMissing(new NewTopic(settings.checkpointTopic(), Optional.of(1), Optional.empty()).configs(Map.of(
            TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
            TopicConfig.SEGMENT_MS_CONFIG, "600000",
            TopicConfig.MIN_CLEANABLE_DIRTY_RATIO_CONFIG, "0.1")));
    }

    /**
     * Open the group's consumer and the committed reader.
     */
    void openConsumers()
    {
        final Properties consumerConfig = new Properties();
        consumerConfig.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrap());
        consumerConfig.put(ConsumerConfig.GROUP_ID_CONFIG, settings.group());
        consumerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
        consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        consumerConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerConfig.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, TrackingAssignor.class.getName());
        consumerConfig.put(TrackingAssignor.TRACKER, rebalances);
        consumerConfig.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, Integer.toString((int)settings.sessionTimeout().toMillis()));
        consumerConfig.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, Integer.toString((int)Math.max(500, settings.sessionTimeout().toMillis() / 5)));
        consumerConfig.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        consumerConfig.put(ConsumerConfig.CLIENT_ID_CONFIG, name);
        consumer = new KafkaConsumer<>(consumerConfig, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        committedReader = new CommittedReader(settings.bootstrap(), admin, settings.transactionTimeout().multipliedBy(3).plusSeconds(30));
    }

    /**
     * @return the group's consumer (after {@link #openConsumers()}).
     */
    KafkaConsumer<byte[], byte[]> consumer()
    {
        return consumer;
    }

    /**
     * @return whether the group's consumer is rejoining the group.
     */
    RebalanceTracker rebalances()
    {
        return rebalances;
    }

    /**
     * @return the reader of committed records (after {@link #openConsumers()}).
     */
    CommittedReader committedReader()
    {
        return committedReader;
    }

    /** Interrupt the consumer's poll, if it is open (any thread). */
    void wakeup()
    {
        final KafkaConsumer<byte[], byte[]> c = consumer;
        if (c != null)
        {
            c.wakeup();
        }
    }

    /** @return a new transactional producer, its transactions initialised: a new epoch, the open transaction ended */
    KafkaProducer<byte[], byte[]> newProducer()
    {
        final Properties producerConfig = new Properties();
        producerConfig.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrap());
        producerConfig.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "weir-" + settings.group() + "-" + settings.instance());
        producerConfig.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, Integer.toString((int)settings.transactionTimeout().toMillis()));
        producerConfig.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        producerConfig.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(128 * 1024));
        producerConfig.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(1024 * 1024));
        final KafkaProducer<byte[], byte[]> fresh = new KafkaProducer<>(producerConfig, new ByteArraySerializer(), new ByteArraySerializer());
        for (int attempt = 1; ; attempt++)
        {
            try
            {
                fresh.initTransactions();
                return fresh;
            }
            catch (final org.apache.kafka.common.errors.TimeoutException ex)
            {
                if (attempt == TransactionFailure.INIT_ATTEMPTS)
                {
                    fresh.close(Duration.ZERO);
                    throw ex;
                }
                LOG.warn("{}: initialising the producer's transactions timed out ({}); trying again", name, ex.getMessage());
            }
            catch (final RuntimeException ex)
            {
                fresh.close(Duration.ZERO);
                throw ex;
            }
        }
    }

    /**
     * @param topic a topic.
     * @return its partition count.
     * @throws IllegalStateException if it cannot be described.
     */
    int partitionCount(final String topic)
    {
        try
        {
            return admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().size();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
        catch (final ExecutionException ex)
        {
            throw new IllegalStateException("cannot describe topic " + topic + " at " + settings.bootstrap() + ": " + ex.getCause().getMessage(), ex.getCause());
        }
    }

    /**
     * The partition count of a topic created a moment ago: a broker may not know it yet ("does not host this
     * topic-partition") until its metadata has spread, so ask again until it does, for at most the leaders' timeout.
     */
    private int partitionCountOnceKnown(final String topic) throws InterruptedException
    {
        final long deadline = System.nanoTime() + LEADERS_TIMEOUT.toNanos();
        while (true)
        {
            try
            {
                return partitionCount(topic);
            }
            catch (final IllegalStateException ex)
            {
                if (!(ex.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() - deadline > 0)
                {
                    throw ex;
                }
                Thread.sleep(50); // the metadata of a new topic spreads within milliseconds; ask again
            }
        }
    }

    /** Close the consumer (leaving the group), if open. */
    void closeConsumer()
    {
        if (consumer != null)
        {
            try
            {
                consumer.close(Duration.ofSeconds(5));
            }
            catch (final RuntimeException ex)
            {
                LOG.debug("closing the consumer: {}", ex.toString());
            }
        }
    }

    /** Close the committed reader and the admin client (the consumer first: {@link #closeConsumer()}). */
    @Override
    public void close()
    {
        if (committedReader != null)
        {
            committedReader.close();
        }
        admin.close(Duration.ofSeconds(5));
    }

    private void createIfMissing(final NewTopic topic)
    {
        try
        {
            admin.createTopics(List.of(topic)).all().get();
            LOG.info("created topic {}", topic.name());
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
        catch (final ExecutionException ex)
        {
            if (!(ex.getCause() instanceof TopicExistsException))
            {
                throw new IllegalStateException("cannot create topic " + topic.name() + ": " + ex.getCause().getMessage(), ex.getCause());
            }
        }
        awaitLeaders(topic.name());
    }

    /** Wait until every partition of a topic (perhaps created a moment ago, here or by another instance) answers. */
    private void awaitLeaders(final String topic)
    {
        try
        {
            TopicLeaders.await(admin, topic, partitionCountOnceKnown(topic), LEADERS_TIMEOUT);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
        catch (final ExecutionException | TimeoutException ex)
        {
            final Throwable cause = ex instanceof ExecutionException ? ex.getCause() : ex;
            throw new IllegalStateException("the partitions of topic " + topic + " have no leader that answers: " + cause.getMessage(), cause);
        }
    }
}
