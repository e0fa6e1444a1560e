package dev.weir.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;

/**
 * Waits until the leader of every partition of a topic answers requests. A broker reports a new topic (and its
 * partitions' leaders) before those leaders take requests: reading the end of a partition of a topic created a
 * moment ago fails with {@code UnknownTopicOrPartitionException}, and an idempotent producer whose first batch
 * meets {@code NOT_LEADER_OR_FOLLOWER} while a later one is appended retries it out of sequence until its delivery
 * times out (both seen with Kafka 4.4 on a loaded machine). A ListOffsets request is answered by the leader
 * itself, so a topic whose every partition answers one is ready.
 * <p>
 * Stateless; thread-safe as far as the given admin client is.
 */
public final class TopicLeaders
{
    private static final long RETRY_MILLIS = 100;

    private TopicLeaders()
    {
    }

    /**
     * Wait until the leader of each of the topic's partitions answers a ListOffsets request, retrying retriable
     * failures.
     *
     * @param admin      the admin client to ask with.
     * @param topic      the topic.
     * @param partitions its number of partitions.
     * @param timeout    how long to wait at most.
     * @throws ExecutionException   if the broker refuses for a reason that is not retriable, or still retriable at the
     *                              deadline (the last failure is its cause).
     * @throws InterruptedException if the waiting thread is interrupted.
     * @throws TimeoutException     if one request is not answered within the timeout.
     */
    public static void await(final Admin admin, final String topic, final int partitions, final Duration timeout)
        throws ExecutionException, InterruptedException, TimeoutException
    {
        final Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (int p = 0; p < partitions; p++)
        {
            latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (true)
        {
            try
            {
                admin.listOffsets(latest).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                return;
            }
            catch (final ExecutionException ex)
            {
                if (!(ex.getCause() instanceof RetriableException) || System.nanoTime() - deadline > 0)
                {
                    throw ex;
                }
                Thread.sleep(RETRY_MILLIS);
            }
        }
    }
}
