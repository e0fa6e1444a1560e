package dev.weir.kafka;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import dev.weir.journal.files.FileReplacement;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an instance has done and where its partitions are: counters any thread reads, and one status line per owned
 * partition, published in memory and to the file {@code <journal>/kafka/status} (replaced atomically).
 * <p>
 * Thread-safety: the counters and {@link #lines()} may be read from any thread; they are written, and
 * {@link #publish} called, on the instance's Kafka thread only.
 */
final class InstanceStatus
{
    private static final Logger LOG = LoggerFactory.getLogger(InstanceStatus.class);

    private final KafkaRun.Settings settings;
    private final AtomicLong mirrored = new AtomicLong();
    private final AtomicLong produced = new AtomicLong();
    private final AtomicLong transactions = new AtomicLong();
    private final AtomicLong takeovers = new AtomicLong();
    private final Map<Integer, Long> takeoversOf = new ConcurrentHashMap<>();
    private final Map<Integer, Long> releasesOf = new ConcurrentHashMap<>();
    private volatile String lines = "";

    /**
     * @param settings what the instance runs with (its ids and journal directory).
     */
    InstanceStatus(final KafkaRun.Settings settings)
    {
        this.settings = settings;
    }

    /** @param events events mirrored into the partitions' journals */
    void mirrored(final long events)
    {
        mirrored.addAndGet(events);
    }

    /** @param outputs outputs produced to the output topic */
    void produced(final long outputs)
    {
        produced.addAndGet(outputs);
    }

    /** One transaction committed. */
    void committed()
    {
        transactions.incrementAndGet();
    }

    /** @param partition a partition taken over */
    void tookOver(final int partition)
    {
        takeovers.incrementAndGet();
        takeoversOf.merge(partition, 1L, Long::sum);
    }

    /** @param partition a partition released: its work committed, then given up to the group */
    void released(final int partition)
    {
        releasesOf.merge(partition, 1L, Long::sum);
    }

    /** @return events mirrored since the start */
    long events()
    {
        return mirrored.get();
    }

    /** @return outputs produced since the start */
    long outputs()
    {
        return produced.get();
    }

    /** @return transactions committed since the start */
    long transactions()
    {
        return transactions.get();
    }

    /** @return partitions taken over since the start */
    long takeovers()
    {
        return takeovers.get();
    }

    /** @return the times a partition was taken over since the start */
    long takeovers(final int partition)
    {
        return takeoversOf.getOrDefault(partition, 0L);
    }

    /** @return the times a partition was released since the start */
    long releases(final int partition)
    {
        return releasesOf.getOrDefault(partition, 0L);
    }

    /** @return one line per owned partition, as of the last {@link #publish} */
    String lines()
    {
        return lines;
    }

    /**
     * Publish the owned partitions' lines, in memory and to the status file (a failure to write it is logged at
     * DEBUG).
     *
     * @param tasks the owned partitions, in partition order.
     * @param lag   the consumer's lag on a partition, if known.
     */
    void publish(final Collection<PartitionTask> tasks, final Function<TopicPartition, OptionalLong> lag)
    {
        final StringBuilder text = new StringBuilder();
        for (final PartitionTask task : tasks)
        {
            final OptionalLong known = lag.apply(task.source());
            task.status(text, known.isPresent() ? known.getAsLong() : -1);
        }
        lines = text.toString();
        final Path file = settings.journal().resolve("kafka").resolve("status");
        try
        {
            Files.createDirectories(file.getParent());
            final Path temp = file.resolveSibling(".status.tmp");
            final String content = "instance " + settings.instance() + " group " + settings.group() + " topic " + settings.topic()
                + " at " + Instant.now() + " events " + mirrored.get() + " outputs " + produced.get()
                + " transactions " + transactions.get() + "\n" + lines;
            FileReplacement.replace(file, temp, false, ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8)));
        }
        catch (final IOException ex)
        {
            LOG.debug("cannot write {}: {}", file, ex.toString());
        }
    }
}
