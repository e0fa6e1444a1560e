package dev.weir.cli;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The topic {@code weir produce} sends to: created with the asked number of partitions (and the broker's default
 * replication factor) if it does not exist, else taken as it is. One admin client per call; thread-safe.
 */
final class ProducedTopic
{
    private static final long TIMEOUT_SECONDS = 30;

    private final String bootstrap;
    private final String topic;

    /**
     * @param bootstrap the broker's bootstrap servers.
     * @param topic     the topic's name.
     */
    ProducedTopic(final String bootstrap, final String topic)
    {
        this.bootstrap = bootstrap;
        this.topic = topic;
    }

    /**
     * Create the topic if it is missing.
     *
     * @param partitions its partitions if it is created.
     * @return its partitions: as asked if created, its own if it existed.
     * @throws IllegalStateException if the broker cannot be reached or refuses.
     */
    int ensure(final int partitions)
    {
        final Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, String.valueOf(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS)));
        try (Admin admin = Admin.create(properties))
        {
            final Integer existing = partitionsOf(admin);
            if (existing != null)
            {
                if (existing != partitions)
                {
                    System.err.printf("weir: topic %s exists with %d partitions: it keeps them%n", topic, existing);
                }
                return existing;
            }
            try
            {
                admin.createTopics(List.of(new NewTopic(topic, Optional.of(partitions), Optional.empty()))).all()
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                awaitLeaders(admin, partitions);
                return partitions;
            }
            catch (final ExecutionException ex)
            {
                if (ex.getCause() instanceof TopicExistsException)
                {
                    final Integer raced = partitionsOf(admin);
                    if (raced != null)
                    {
                        return raced;
                    }
                }
                throw refused("cannot create topic " + topic + " with " + partitions + " partitions", ex.getCause());
            }
        }
        catch (final TimeoutException ex)
        {
            throw refused("no answer from Kafka at " + bootstrap + " within " + TIMEOUT_SECONDS + " s", ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw refused("interrupted", ex);
        }
    }

    /**
     * @return the topic's partitions, or null if it does not exist.
     */
    private Integer partitionsOf(final Admin admin) throws InterruptedException, TimeoutException
    {
        try
        {
            final Map<String, TopicDescription> described = admin.describeTopics(List.of(topic)).allTopicNames()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return described.get(topic).partitions().size();
        }
        catch (final ExecutionException ex)
        {
            if (ex.getCause() instanceof UnknownTopicOrPartitionException)
            {
                return null;
            }
            throw refused("cannot describe topic " + topic + " at " + bootstrap, ex.getCause());
        }
    }

    /**
     * Wait until the leader of every partition of a topic just created answers: a broker reports a new partition's
     * leader before that leader takes requests, and an idempotent producer whose first batch meets
     * NOT_LEADER_OR_FOLLOWER while a later one is appended retries that batch out of sequence until its delivery
     * times out (seen with Kafka 4.4). A ListOffsets request is answered by the leader itself.
     */
    private void awaitLeaders(final Admin admin, final int partitions) throws InterruptedException, TimeoutException
    {
        final Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (int p = 0; p < partitions; p++)
        {
            latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (true)
        {
            try
            {
                admin.listOffsets(latest).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                return;
            }
            catch (final ExecutionException ex)
            {
                if (!(ex.getCause() instanceof RetriableException) || System.nanoTime() > deadline)
                {
                    throw refused("the partitions of the new topic " + topic + " have no leader that answers", ex.getCause());
                }
                Thread.sleep(100);
            }
        }
    }

    private static IllegalStateException refused(final String message, final Throwable cause)
    {
        return new IllegalStateException(message + (cause != null && cause.getMessage() != null ? ": " + cause.getMessage() : ""), cause);
    }
}
