package dev.weir.cli;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;

import dev.weir.kafka.OutputHeaders;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code weir consume}: print what is committed in a topic, read {@code read_committed} from its start, one line per
 * record (the value; with {@code --headers}, Weir's headers before it), until nothing new arrives for {@code --idle}.
 * How to read the results of {@code weir run --kafka} exactly as a downstream service would. Reads no group offsets and
 * commits none.
 */
@Command(name = "consume", mixinStandardHelpOptions = true,
    description = "Print the committed records of a Kafka topic (read_committed, from its start) until it is quiet.")
final class ConsumeCommand implements Callable<Integer>
{
    @Option(names = "--kafka", required = true, paramLabel = "HOST:PORT", description = "the Kafka broker(s) to bootstrap from, comma-separated")
    String kafka;

    @Option(names = "--topic", required = true, paramLabel = "T", description = "the topic")
    String topic;

    @Option(names = "--idle", paramLabel = "D", converter = Durations.class, defaultValue = "5s",
        description = "stop when nothing new has arrived for D (default: ${DEFAULT-VALUE})")
    long idleMs;

    @Option(names = "--headers", description = "print each record as source@offset seq kind, then the value (Weir's headers)")
    boolean headers;

    @Override
    public Integer call()
    {
        KafkaAddress.check(kafka);
        if (idleMs <= 0)
        {
            throw new BadInputException("--idle must be > 0");
        }
        final Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        final PrintStream out = System.out;
        long count = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer()))
        {
            final List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
            if (partitions.isEmpty())
            {
                throw new BadInputException("topic " + topic + " does not exist at " + kafka);
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long quietSince = System.nanoTime();
            while (System.nanoTime() - quietSince < idleMs * 1_000_000L)
            {
                for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200)))
                {
                    if (headers)
                    {
                        out.print(OutputHeaders.text(record.headers(), OutputHeaders.SOURCE) + "@"
                            + OutputHeaders.text(record.headers(), OutputHeaders.OFFSET) + " "
                            + OutputHeaders.text(record.headers(), OutputHeaders.SEQUENCE) + " "
                            + OutputHeaders.text(record.headers(), OutputHeaders.KIND) + " ");
                    }
                    out.println(record.value() == null ? "" : new String(record.value(), StandardCharsets.UTF_8));
                    count++;
                    quietSince = System.nanoTime();
                }
            }
        }
        out.flush();
        System.err.println("consume: " + count + " committed records in " + topic);
        return 0;
    }
}
