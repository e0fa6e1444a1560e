package dev.weir.cli;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Callable;

import dev.weir.kafka.CommittedTopic;
import dev.weir.kafka.OutputHeaders;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code weir consume}: print what is committed in a topic, read {@code read_committed} from its start, one line per
 * record (the value; with {@code --headers}, Weir's headers before it), until nothing new arrives for {@code --idle}
 * ({@link CommittedTopic}). How to read the results of {@code weir run --kafka} exactly as a downstream service
 * would. Reads no group offsets and commits none.
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
        KafkaOptions.bootstrap(kafka);
        if (idleMs <= 0)
        {
            throw new BadInputException("--idle must be > 0");
        }
        final PrintStream out = System.out;
        final long count;
        try
        {
            count = CommittedTopic.read(kafka, topic, Duration.ofMillis(idleMs), record ->
            {
                if (headers)
                {
                    out.print(OutputHeaders.describe(record.headers()) + " ");
                }
                out.println(record.value() == null ? "" : new String(record.value(), StandardCharsets.UTF_8));
            });
        }
        catch (final IllegalArgumentException ex)
        {
            throw new BadInputException(ex.getMessage()); // the topic does not exist
        }
        out.flush();
        System.err.println("consume: " + count + " committed records in " + topic);
        return 0;
    }
}
