package dev.weir.kafka;

import java.time.Duration;
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
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The topic a {@link CsvProducer} sends to: created with the asked number of partitions (and the broker's default
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

    /** Wait until the leader of every partition of the topic just created answers (see {@link TopicLeaders}). */
    private void awaitLeaders(final Admin admin, final int partitions) throws InterruptedException, TimeoutException
    {
        try
        {
            TopicLeaders.await(admin, topic, partitions, Duration.ofSeconds(TIMEOUT_SECONDS));
        }
        catch (final ExecutionException ex)
        {
            throw refused("the partitions of the new topic " + topic + " have no leader that answers", ex.getCause());
        }
    }

    private static IllegalStateException refused(final String message, final Throwable cause)
    {
        return new IllegalStateException(message + (cause != null && cause.getMessage() != null ? ": " + cause.getMessage() : ""), cause);
    }
}
